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
    /// The error as one line that starts with the path of the bad value
    /// under `root`, the way the npm package's `TypeError` reads:
    /// `options.sources[0].index: invalid type: …` (`options: …` when the
    /// value as a whole was wrong).
    ///
    /// # Examples
    /// ```
    /// let err = citemark::Options::from_json(r#"{"mode": "fancy"}"#).unwrap_err();
    /// assert!(err.message_at("options").starts_with("options.mode: unknown variant `fancy`"));
    /// ```
    pub fn message_at(&self, root: &str) -> String {
        match self {
            Error::InvalidOption { field, reason } => {
                let separator = if field.is_empty() || field.starts_with('[') {
                    ""
                } else {
                    "."
                };
                format!("{root}{separator}{field}: {reason}")
            }
        }
    }

    pub(crate) fn invalid(field: &str, reason: impl Into<String>) -> Self {
        Error::InvalidOption {
            field: field.to_owned(),
            reason: reason.into(),
        }
    }
}
