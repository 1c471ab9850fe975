//! The tail's preview: the open text as it will look once complete.
use std::borrow::Cow;

pub(super) fn preview(open: &str) -> Cow<'_, str> {
    Cow::Borrowed(open)
}
