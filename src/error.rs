//! The crate's one error type.
//!
//! Rendering itself never fails: any markdown renders. Errors come only from
//! building options (a short-link pattern that cannot work, an alias cycle),
//! and each names the field that was wrong so a CLI or the WASM boundary can
//! repeat it to the user.

/// What was wrong with the options handed to citemark.
///
/// # Examples
/// ```
/// use citemark::{Error, ShortLinkPattern};
///
/// let err = ShortLinkPattern::new("/-/ai/call/{call}", "conversation").unwrap_err();
/// assert!(matches!(err, Error::InvalidOption { ref field, .. } if field == "shortLinkPatterns"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// An option had a value citemark cannot use.
    #[error("invalid option `{field}`: {reason}")]
    InvalidOption {
        /// The option's name as the JSON/JS API spells it (camelCase).
        field: String,
        /// What is wrong with it, in words.
        reason: String,
    },
}

impl Error {
    pub(crate) fn invalid(field: &str, reason: impl Into<String>) -> Self {
        Error::InvalidOption {
            field: field.to_owned(),
            reason: reason.into(),
        }
    }
}
