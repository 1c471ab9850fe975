//! The HTML writer: citation-aware events in, HTML out.
//!
//! For plain markdown it writes exactly what pulldown-cmark's `push_html`
//! writes (the spec tests hold it to that), with three differences that
//! make it safe: every `href`/`src` passes the URL policy, links to other
//! origins get `rel`/`target`, and raw HTML follows [`RawHtml`]. Table
//! alignment is written as `align="…"`, as GitHub and cmark-gfm do, not as
//! an inline `style` (no `style` attribute ever leaves citemark).

use pulldown_cmark::{
    Alignment, BlockQuoteKind, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Tag, TagEnd,
};
use pulldown_cmark_escape::{escape_href, escape_html, escape_html_body_text};

use crate::cite::index::{CitationKind, FootnoteNumbering};
use crate::cite::{CitationView, Citations, Ev, Resolver};
use crate::options::{Images, Mode, Options, RawHtml};
use crate::parse::{is_inline_end, is_inline_tag, AWAITED_DESTINATION};
use crate::sanitize::{Sanitizer, Scope};
use crate::url;

/// The elements that never have an end tag (HTML's void elements).
pub(crate) const VOID_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr",
];

/// Whether the element `name` (in any case) is void: no content, no end tag.
pub(crate) fn is_void_element(name: &str) -> bool {
    VOID_ELEMENTS
        .iter()
        .any(|void| void.eq_ignore_ascii_case(name))
}

/// The most output buffer [`write_html`] reserves before it starts.
const MAX_UPFRONT_CAPACITY: usize = 64 * 1024;

/// The output buffer to reserve for `markdown_len` bytes of markdown: a
/// cited answer's HTML is about 2.4 times its markdown (the demo answer's
/// is 2.35), the citation elements' attributes being most of the growth.
/// Reserving enough spares a render the copies of growing; a streamed
/// message's small pieces get room for a citation element at least.
pub(crate) fn html_capacity(markdown_len: usize) -> usize {
    markdown_len.saturating_mul(5).div_ceil(2).max(MIN_CAPACITY)
}

/// About one citation element with its attributes.
const MIN_CAPACITY: usize = 256;

/// HTML written for a message, or for one part of a streamed one.
pub(crate) struct WrittenPart {
    pub(crate) html: String,
    /// Raw HTML opened in the part was still unbalanced at its end (a
    /// `<details>` whose `</details>` may come in a later block), so the
    /// part's end is not a place where the message can be cut.
    pub(crate) open_raw_html: bool,
    /// An HTML block's raw element (`<details>`) was still open when the
    /// container holding it ended, and was closed there: in a part that
    /// ends a container early (a quote's first children), the blocks after
    /// the part would have gone inside it.
    pub(crate) closed_open_html_block: bool,
}

/// Writes what `citations` makes of its events as HTML, telling whether
/// raw HTML was left open.
/// `attributes` are the sources' citation attributes written so far (see
/// [`SourceAttributes`]), added to as sources are first cited; footnotes
/// are numbered by `footnotes`, which records them.
pub(crate) fn write_html<'a, 'f>(
    citations: &mut Citations<'a, '_, '_>,
    options: &Options,
    capacity: usize,
    attributes: &mut SourceAttributes,
    footnotes: &mut FootnoteNumbering<'f>,
) -> WrittenPart {
    let mut writer = HtmlWriter::buffer_for(options);
    writer.source_attributes = std::mem::take(attributes);
    writer.footnotes = std::mem::take(footnotes);
    // Reserving past glibc's mmap threshold (128 KiB) made every large
    // render map and fault in fresh pages: a third of its time. Beyond
    // that, doubling growth is cheaper.
    writer.out.reserve(capacity.min(MAX_UPFRONT_CAPACITY));
    citations.write_to(&mut |event, resolver| writer.event(event, resolver));
    *attributes = std::mem::take(&mut writer.source_attributes);
    *footnotes = std::mem::take(&mut writer.footnotes);
    let open_raw_html = !writer.scopes.is_empty();
    let closed_open_html_block = writer.closed_open_html_block;
    WrittenPart {
        html: writer.finish(),
        open_raw_html,
        closed_open_html_block,
    }
}

/// A citation element being written.
struct OpenCitation {
    ordinal: u32,
    /// Written inside `<sup>`.
    superscript: bool,
    /// Icon mode: the content is not written.
    icon: bool,
    wrote_content: bool,
}

/// An image being written.
struct OpenImage<'a> {
    title: CowStr<'a>,
    /// Nesting inside the alt text (emphasis etc.).
    depth: usize,
    written_as: ImageAs<'a>,
}

/// How an image is written.
enum ImageAs<'a> {
    /// `<img>`: its alt text goes into the attribute.
    Img,
    /// Its alt text, as markdown text (a refused URL, or [`Images::Alt`]).
    Text,
    /// A link to `src` around its alt text ([`Images::Link`]); `empty`
    /// until some of the alt text is written.
    Link { src: CowStr<'a>, empty: bool },
    /// Nothing: an image whose definition a streamed message has still to
    /// bring ([`AWAITED_DESTINATION`]), which shows no text once it does.
    Awaited,
}

struct HtmlWriter<'o, 'a, 'f> {
    options: &'o Options,
    out: String,
    end_newline: bool,
    block_depth: usize,
    table_alignments: Vec<Alignment>,
    table_cell_index: usize,
    in_table_head: bool,
    footnotes: FootnoteNumbering<'f>,
    /// For each open link: whether an `<a>` was written (else refused).
    links: Vec<bool>,
    images: Vec<OpenImage<'a>>,
    citation: Option<OpenCitation>,
    /// How many of our inline elements (emphasis, links, citations) are
    /// open: raw HTML inside one is scoped to it (see [`Scope`]).
    inline_depth: usize,
    scopes: Vec<Scope>,
    /// An HTML block's raw element was still open when its container
    /// ended (see [`WrittenPart::closed_open_html_block`]).
    closed_open_html_block: bool,
    sanitizer: Option<Sanitizer<'o>>,
    source_attributes: SourceAttributes,
}

/// The link attributes (` href="…" title="…" rel="…"`) of the citations of
/// each source, by position: alike for every citation of a source, so they
/// are written once. A stream keeps them for every piece it renders.
#[derive(Debug, Clone, Default)]
pub(crate) struct SourceAttributes(Vec<Option<String>>);

fn heading_open(level: HeadingLevel) -> &'static str {
    match level {
        HeadingLevel::H1 => "<h1",
        HeadingLevel::H2 => "<h2",
        HeadingLevel::H3 => "<h3",
        HeadingLevel::H4 => "<h4",
        HeadingLevel::H5 => "<h5",
        HeadingLevel::H6 => "<h6",
    }
}

fn heading_close(level: HeadingLevel) -> &'static str {
    match level {
        HeadingLevel::H1 => "</h1>\n",
        HeadingLevel::H2 => "</h2>\n",
        HeadingLevel::H3 => "</h3>\n",
        HeadingLevel::H4 => "</h4>\n",
        HeadingLevel::H5 => "</h5>\n",
        HeadingLevel::H6 => "</h6>\n",
    }
}

/// A citation element's opening up to its class attribute's end, in one
/// piece (a cited answer writes thousands of them).
fn citation_opening(superscript: bool, as_button: bool, resolved: bool) -> &'static str {
    match (superscript, as_button, resolved) {
        (false, false, true) => r#"<a class="citation""#,
        (false, false, false) => r#"<a class="citation citation-unresolved""#,
        (false, true, true) => r#"<button type="button" class="citation""#,
        (false, true, false) => r#"<button type="button" class="citation citation-unresolved""#,
        (true, false, true) => r#"<sup><a class="citation""#,
        (true, false, false) => r#"<sup><a class="citation citation-unresolved""#,
        (true, true, true) => r#"<sup><button type="button" class="citation""#,
        (true, true, false) => r#"<sup><button type="button" class="citation citation-unresolved""#,
    }
}

/// What follows a citation's key up to its ordinal's value.
fn kind_and_ordinal_attributes(kind: CitationKind) -> &'static str {
    match kind {
        CitationKind::Cite => r#"" data-citation-kind="cite" data-citation-ordinal=""#,
        CitationKind::Index => r#"" data-citation-kind="index" data-citation-ordinal=""#,
        CitationKind::Shortlink => r#"" data-citation-kind="shortlink" data-citation-ordinal=""#,
        CitationKind::Query => r#"" data-citation-kind="query" data-citation-ordinal=""#,
    }
}

/// `n` in decimal, written into `buf` (no allocation on the hot path).
fn decimal(mut n: u32, buf: &mut [u8; 10]) -> &str {
    let mut start = buf.len();
    loop {
        start -= 1;
        // `n % 10` is a digit: the cast cannot truncate.
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    std::str::from_utf8(&buf[start..]).unwrap_or("0")
}

impl<'o, 'a, 'f> HtmlWriter<'o, 'a, 'f> {
    /// A writer with empty output.
    fn buffer_for(options: &'o Options) -> Self {
        HtmlWriter {
            options,
            out: String::new(),
            end_newline: true,
            block_depth: 0,
            table_alignments: Vec::new(),
            table_cell_index: 0,
            in_table_head: false,
            footnotes: FootnoteNumbering::default(),
            links: Vec::new(),
            images: Vec::new(),
            citation: None,
            inline_depth: 0,
            scopes: Vec::new(),
            closed_open_html_block: false,
            sanitizer: None,
            source_attributes: SourceAttributes::default(),
        }
    }

    fn finish(mut self) -> String {
        while !self.scopes.is_empty() {
            self.close_scope();
        }
        self.out
    }

    // ---- output plumbing -------------------------------------------------

    /// Where our own HTML goes: the open raw-HTML scope, or the output.
    fn sink(&mut self) -> &mut String {
        match self.scopes.last_mut() {
            Some(scope) => scope.pending_mut(),
            None => &mut self.out,
        }
    }

    /// Writes our own HTML.
    fn write(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        self.sink().push_str(s);
        self.end_newline = s.ends_with('\n');
    }

    /// Writes `s` escaped, for an attribute value or (`body_text`) for text.
    fn write_escaped(&mut self, s: &str, body_text: bool) {
        if s.is_empty() {
            return;
        }
        let sink = self.sink();
        // Writing to a String cannot fail.
        let _ = if body_text {
            escape_html_body_text(&mut *sink, s)
        } else {
            escape_html(&mut *sink, s)
        };
        self.end_newline = s.ends_with('\n');
    }

    fn write_href(&mut self, href: &str) {
        let _ = escape_href(self.sink(), href);
        self.end_newline = false;
    }

    /// Writes a newline unless the output already ends with one.
    fn ensure_newline(&mut self) {
        if !self.end_newline {
            self.write("\n");
        }
    }

    // ---- events ----------------------------------------------------------

    #[inline(always)]
    fn event(&mut self, event: Ev<'a>, citations: &Resolver<'_>) {
        match event {
            Ev::Citation(ordinal) => {
                if let Some(view) = citations.view(ordinal) {
                    self.start_citation(&view);
                }
            }
            Ev::CitationEnd => {
                let label = self
                    .citation
                    .as_ref()
                    .filter(|c| !c.icon && !c.wrote_content)
                    .and_then(|c| citations.view(c.ordinal))
                    .map(|view| view.label);
                self.end_citation(label);
            }
            Ev::Md(event) => {
                if let Some(citation) = &mut self.citation {
                    if citation.icon {
                        return;
                    }
                    citation.wrote_content = true;
                }
                if !self.images.is_empty() {
                    self.image_alt_event(event);
                } else {
                    self.md_event(event);
                }
            }
        }
    }

    fn md_event(&mut self, event: Event<'a>) {
        match event {
            Event::Start(tag) => {
                if !is_inline_tag(&tag) {
                    self.block_depth += 1;
                }
                self.start_tag(tag);
            }
            Event::End(tag) => {
                let block = !is_inline_end(tag);
                if block {
                    self.before_block_end();
                    self.block_depth = self.block_depth.saturating_sub(1);
                }
                self.end_tag(tag);
                if block {
                    self.after_block_end();
                }
            }
            Event::Text(text) => self.write_escaped(&text, true),
            Event::Code(text) => {
                self.write("<code>");
                self.write_escaped(&text, true);
                self.write("</code>");
            }
            Event::InlineMath(text) => {
                self.write(r#"<span class="math math-inline">"#);
                self.write_escaped(&text, false);
                self.write("</span>");
            }
            Event::DisplayMath(text) => {
                self.write(r#"<span class="math math-display">"#);
                self.write_escaped(&text, false);
                self.write("</span>");
            }
            Event::Html(html) => self.raw_html(&html, false),
            Event::InlineHtml(html) => self.raw_html(&html, true),
            Event::SoftBreak => self.write("\n"),
            Event::HardBreak => self.write("<br />\n"),
            Event::Rule => {
                self.ensure_newline_before("<hr />\n");
            }
            Event::FootnoteReference(name) => {
                let number = self.footnotes.number(&name);
                self.write(r##"<sup class="footnote-reference"><a href="#"##);
                self.write_escaped(&self.options.id_prefix, false);
                self.write_escaped(&name, false);
                self.write("\">");
                self.write(&number.to_string());
                self.write("</a></sup>");
            }
            Event::TaskListMarker(checked) => self.write(if checked {
                "<input disabled=\"\" type=\"checkbox\" checked=\"\"/>\n"
            } else {
                "<input disabled=\"\" type=\"checkbox\"/>\n"
            }),
        }
    }

    /// Writes `s`, on a new line unless the output is already at one.
    fn ensure_newline_before(&mut self, s: &str) {
        self.ensure_newline();
        self.write(s);
    }

    fn start_tag(&mut self, tag: Tag<'a>) {
        match tag {
            Tag::HtmlBlock => self.start_html_block(),
            Tag::Paragraph => self.ensure_newline_before("<p>"),
            Tag::Heading {
                level,
                id,
                classes,
                attrs,
            } => {
                self.ensure_newline_before(heading_open(level));
                if let Some(id) = id {
                    self.write(" id=\"");
                    self.write_escaped(&id, false);
                    self.write("\"");
                }
                if !classes.is_empty() {
                    self.write(" class=\"");
                    for (i, class) in classes.iter().enumerate() {
                        if i > 0 {
                            self.write(" ");
                        }
                        self.write_escaped(class, false);
                    }
                    self.write("\"");
                }
                for (attr, value) in attrs {
                    self.write(" ");
                    self.write_escaped(&attr, false);
                    self.write("=\"");
                    self.write_escaped(value.as_deref().unwrap_or(""), false);
                    self.write("\"");
                }
                self.write(">");
            }
            Tag::Table(alignments) => {
                self.table_alignments = alignments;
                self.write("<table>");
            }
            Tag::TableHead => {
                self.in_table_head = true;
                self.table_cell_index = 0;
                self.write("<thead><tr>");
            }
            Tag::TableRow => {
                self.table_cell_index = 0;
                self.write("<tr>");
            }
            Tag::TableCell => {
                self.write(if self.in_table_head { "<th" } else { "<td" });
                let align = match self.table_alignments.get(self.table_cell_index) {
                    Some(Alignment::Left) => " align=\"left\">",
                    Some(Alignment::Center) => " align=\"center\">",
                    Some(Alignment::Right) => " align=\"right\">",
                    _ => ">",
                };
                self.write(align);
            }
            Tag::BlockQuote(kind) => {
                let class = match kind {
                    None => "",
                    Some(BlockQuoteKind::Note) => " class=\"markdown-alert-note\"",
                    Some(BlockQuoteKind::Tip) => " class=\"markdown-alert-tip\"",
                    Some(BlockQuoteKind::Important) => " class=\"markdown-alert-important\"",
                    Some(BlockQuoteKind::Warning) => " class=\"markdown-alert-warning\"",
                    Some(BlockQuoteKind::Caution) => " class=\"markdown-alert-caution\"",
                };
                self.ensure_newline_before("<blockquote");
                self.write(class);
                self.write(">\n");
            }
            Tag::CodeBlock(kind) => {
                self.ensure_newline();
                let lang = match &kind {
                    CodeBlockKind::Fenced(info) => info.split(' ').next().unwrap_or(""),
                    CodeBlockKind::Indented => "",
                };
                write_code_block_start(self.sink(), lang);
                self.end_newline = false;
            }
            Tag::List(Some(1)) => self.ensure_newline_before("<ol>\n"),
            Tag::List(Some(start)) => {
                self.ensure_newline_before("<ol start=\"");
                self.write(&start.to_string());
                self.write("\">\n");
            }
            Tag::List(None) => self.ensure_newline_before("<ul>\n"),
            Tag::Item => self.ensure_newline_before("<li>"),
            Tag::DefinitionList => self.ensure_newline_before("<dl>\n"),
            Tag::DefinitionListTitle => self.ensure_newline_before("<dt>"),
            Tag::DefinitionListDefinition => self.ensure_newline_before("<dd>"),
            Tag::Subscript => self.start_inline("<sub>"),
            Tag::Superscript => self.start_inline("<sup>"),
            Tag::Emphasis => self.start_inline("<em>"),
            Tag::Strong => self.start_inline("<strong>"),
            Tag::Strikethrough => self.start_inline("<del>"),
            Tag::Link {
                link_type,
                dest_url,
                title,
                ..
            } => self.start_link(link_type, &dest_url, &title),
            Tag::Image {
                dest_url, title, ..
            } => {
                let written_as = self.image_as(dest_url, &title);
                self.images.push(OpenImage {
                    title,
                    depth: 0,
                    written_as,
                });
            }
            Tag::FootnoteDefinition(name) => {
                self.ensure_newline_before("<div class=\"footnote-definition\" id=\"");
                self.write_escaped(&self.options.id_prefix, false);
                self.write_escaped(&name, false);
                let number = self.footnotes.number(&name);
                self.write("\"><sup class=\"footnote-definition-label\">");
                self.write(&number.to_string());
                self.write("</sup>");
            }
            Tag::MetadataBlock(_) => {}
        }
    }

    fn end_tag(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::HtmlBlock => self.end_html_block(),
            TagEnd::Paragraph => self.write("</p>\n"),
            TagEnd::Heading(level) => self.write(heading_close(level)),
            TagEnd::Table => self.write("</tbody></table>\n"),
            TagEnd::TableHead => {
                self.write("</tr></thead><tbody>\n");
                self.in_table_head = false;
            }
            TagEnd::TableRow => self.write("</tr>\n"),
            TagEnd::TableCell => {
                self.write(if self.in_table_head { "</th>" } else { "</td>" });
                self.table_cell_index += 1;
            }
            TagEnd::BlockQuote(_) => self.write("</blockquote>\n"),
            TagEnd::CodeBlock => self.write("</code></pre>\n"),
            TagEnd::List(true) => self.write("</ol>\n"),
            TagEnd::List(false) => self.write("</ul>\n"),
            TagEnd::Item => self.write("</li>\n"),
            TagEnd::DefinitionList => self.write("</dl>\n"),
            TagEnd::DefinitionListTitle => self.write("</dt>\n"),
            TagEnd::DefinitionListDefinition => self.write("</dd>\n"),
            TagEnd::Emphasis => self.end_inline("</em>"),
            TagEnd::Superscript => self.end_inline("</sup>"),
            TagEnd::Subscript => self.end_inline("</sub>"),
            TagEnd::Strong => self.end_inline("</strong>"),
            TagEnd::Strikethrough => self.end_inline("</del>"),
            TagEnd::Link => {
                if self.links.pop().unwrap_or(false) {
                    self.end_inline("</a>");
                }
            }
            TagEnd::Image => {}
            TagEnd::FootnoteDefinition => self.write("</div>\n"),
            TagEnd::MetadataBlock(_) => {}
        }
    }

    // ---- links and images --------------------------------------------------

    fn start_link(&mut self, link_type: LinkType, dest_url: &str, title: &str) {
        if dest_url == AWAITED_DESTINATION {
            self.links.push(false);
            return;
        }
        let href: CowStr<'_> = if link_type == LinkType::Email {
            CowStr::from(format!("mailto:{dest_url}"))
        } else {
            CowStr::Borrowed(dest_url)
        };
        let allowed = url::is_allowed(&href, self.options.urls);
        self.links.push(allowed);
        if !allowed {
            return;
        }
        self.write("<a href=\"");
        self.write_href(&href);
        if !title.is_empty() {
            self.write("\" title=\"");
            self.write_escaped(title, false);
        }
        self.write("\"");
        self.write_external_attributes(&href);
        self.start_inline(">");
    }

    /// `rel` and `target` for a link leaving the page's origin.
    fn write_external_attributes(&mut self, href: &str) {
        let options = self.options;
        let attributes = [("rel", &options.link_rel), ("target", &options.link_target)];
        if attributes.iter().all(|(_, value)| value.is_none()) || !url::is_external(href) {
            return;
        }
        for (name, value) in attributes {
            if let Some(value) = value {
                self.write(" ");
                self.write(name);
                self.write("=\"");
                self.write_escaped(value, false);
                self.write("\"");
            }
        }
    }

    /// Writes the opening of an image to `src` (none when it is written as
    /// its alt text), and says how the rest of it is written.
    fn image_as(&mut self, src: CowStr<'a>, title: &str) -> ImageAs<'a> {
        if &*src == AWAITED_DESTINATION {
            return ImageAs::Awaited;
        }
        if !url::is_allowed(&src, self.options.urls) {
            return ImageAs::Text;
        }
        match self.options.images {
            Images::Show => {
                self.write("<img src=\"");
                self.write_href(&src);
                self.write("\" alt=\"");
                ImageAs::Img
            }
            // An `<a>` cannot hold another, nor sit in a citation's element.
            Images::Link if !self.links.contains(&true) && self.citation.is_none() => {
                self.start_link(LinkType::Inline, &src, title);
                ImageAs::Link { src, empty: true }
            }
            Images::Link | Images::Alt => ImageAs::Text,
        }
    }

    /// Inside an image: text goes into the `alt` attribute, or is written
    /// as markdown when the image is written as its alt text or a link.
    fn image_alt_event(&mut self, event: Event<'a>) {
        if let Some(image) = self.images.last_mut() {
            if let ImageAs::Link { empty, .. } = &mut image.written_as {
                *empty &= matches!(event, Event::End(TagEnd::Image)) && image.depth == 0;
            }
            if matches!(image.written_as, ImageAs::Awaited) {
                // (Images nested in its alt text are its alt text.)
                match event {
                    Event::End(_) if image.depth == 0 => {
                        self.images.pop();
                    }
                    Event::Start(_) => image.depth += 1,
                    Event::End(_) => image.depth -= 1,
                    _ => {}
                }
                return;
            }
        }
        if self
            .images
            .last()
            .is_some_and(|i| !matches!(i.written_as, ImageAs::Img))
        {
            match event {
                Event::End(TagEnd::Image) if self.images.last().is_some_and(|i| i.depth == 0) => {
                    if let Some(OpenImage {
                        written_as: ImageAs::Link { src, empty },
                        ..
                    }) = self.images.pop()
                    {
                        if empty {
                            self.write_escaped(&src, true);
                        }
                        self.end_tag(TagEnd::Link);
                    }
                }
                event => {
                    let Some(image) = self.images.last_mut() else {
                        return;
                    };
                    match &event {
                        // A nested image is written by `md_event` as an
                        // image of its own, which its end closes.
                        Event::Start(Tag::Image { .. }) => {}
                        Event::Start(_) => image.depth += 1,
                        Event::End(_) => image.depth = image.depth.saturating_sub(1),
                        _ => {}
                    }
                    match event {
                        // A link in the alt text of an image written as a
                        // link is written as its text.
                        Event::Start(Tag::Link { .. })
                            if matches!(image.written_as, ImageAs::Link { .. }) =>
                        {
                            self.links.push(false);
                        }
                        event => self.md_event(event),
                    }
                }
            }
            return;
        }
        match event {
            Event::Start(_) => {
                if let Some(image) = self.images.last_mut() {
                    image.depth += 1;
                }
            }
            Event::End(_) => {
                let closes = self.images.last().is_some_and(|i| i.depth == 0);
                if closes {
                    if let Some(image) = self.images.pop() {
                        if !image.title.is_empty() {
                            self.write("\" title=\"");
                            self.write_escaped(&image.title, false);
                        }
                        self.write("\" />");
                    }
                } else if let Some(image) = self.images.last_mut() {
                    image.depth -= 1;
                }
            }
            Event::Text(t) | Event::Code(t) | Event::InlineHtml(t) => self.write_escaped(&t, false),
            Event::InlineMath(t) => {
                self.write("$");
                self.write_escaped(&t, false);
                self.write("$");
            }
            Event::DisplayMath(t) => {
                self.write("$$");
                self.write_escaped(&t, false);
                self.write("$$");
            }
            Event::SoftBreak | Event::HardBreak | Event::Rule => self.write(" "),
            Event::FootnoteReference(name) => {
                let number = self.footnotes.number(&name);
                self.write(&format!("[{number}]"));
            }
            Event::TaskListMarker(checked) => self.write(if checked { "[x]" } else { "[ ]" }),
            Event::Html(_) => {}
        }
    }

    // ---- citations ---------------------------------------------------------

    fn start_citation(&mut self, view: &CitationView<'_>) {
        let mode = self.options.mode;
        let icon = mode == Mode::Icon;
        let as_button = mode == Mode::Button || (icon && self.options.embedded);
        // A marker shows its number raised; one with a label of its own
        // (`[the docs][1]`) reads as a link.
        let superscript = view.kind == CitationKind::Index && !icon && view.label == view.key;
        self.write(citation_opening(superscript, as_button, view.resolved));
        match view.shared_with_source {
            // Every citation of a source links and titles alike: write those
            // attributes once per source and reuse them.
            Some(position) => {
                let kept = &mut self.source_attributes.0;
                if kept.len() <= position {
                    kept.resize(position + 1, None);
                }
                let cached = kept[position].take().unwrap_or_else(|| {
                    let mut attributes = HtmlWriter::buffer_for(self.options);
                    // (The attributes and their escapes, rel and target: one
                    // allocation, not one per doubling.)
                    let href = view.href.as_deref().map_or(0, str::len);
                    attributes.out.reserve(2 * (href + view.title.len()) + 64);
                    attributes.link_attributes(view, as_button);
                    attributes.out
                });
                self.write(&cached);
                self.source_attributes.0[position] = Some(cached);
            }
            None => self.link_attributes(view, as_button),
        }
        self.write(" data-citation-key=\"");
        self.write_escaped(view.key, false);
        self.write(kind_and_ordinal_attributes(view.kind));
        self.write(decimal(view.ordinal, &mut [0; 10]));
        if icon {
            self.write("\" aria-label=\"");
            self.write_escaped(view.label, false);
            self.start_inline("\"><span class=\"citation-icon\" aria-hidden=\"true\"></span>");
        } else {
            self.start_inline("\">");
        }
        self.citation = Some(OpenCitation {
            ordinal: view.ordinal,
            superscript,
            icon,
            wrote_content: false,
        });
    }

    /// ` href="…" title="…" rel="…"` of a citation element.
    fn link_attributes(&mut self, view: &CitationView<'_>, as_button: bool) {
        let href = view.href.as_deref().filter(|_| !as_button);
        if let Some(href) = href {
            self.write(" href=\"");
            self.write_href(href);
            self.write("\"");
        }
        self.write(" title=\"");
        self.write_escaped(view.title, false);
        self.write("\"");
        if let Some(href) = href {
            self.write_external_attributes(href);
        }
    }

    /// Closes the open citation; `empty_label` is its label when nothing
    /// of it was written yet (a bare marker or an empty cite tag).
    fn end_citation(&mut self, empty_label: Option<&str>) {
        let Some(citation) = self.citation.take() else {
            return;
        };
        self.leave_inline();
        if let Some(label) = empty_label {
            self.write_escaped(label, true);
        }
        let as_button =
            self.options.mode == Mode::Button || (citation.icon && self.options.embedded);
        self.write(if as_button { "</button>" } else { "</a>" });
        if citation.superscript {
            self.write("</sup>");
        }
    }

    // ---- raw HTML ------------------------------------------------------------

    fn raw_html(&mut self, html: &str, inline: bool) {
        match self.options.raw_html.effective() {
            RawHtml::DangerouslyPassThrough => self.write(html),
            RawHtml::Escape => self.write_escaped(html, true),
            RawHtml::Strip => {}
            RawHtml::Sanitize => {
                // Inside a link or a citation element only phrasing tags
                // stay: a browser would end the paragraph at a `<div>` and
                // open the `<a>` again inside it, two elements for one
                // citation (fuzzing finding 5), and a raw `<a>` would nest
                // anchors. The text between the dropped tags stays.
                let in_anchor = self.citation.is_some() || self.links.contains(&true);
                if inline && in_anchor && !crate::sanitize::is_phrasing_tag(html) {
                    return;
                }
                // Inline HTML belongs to its leaf block, and to the innermost
                // of our inline elements open there; an HTML block's scope
                // belongs to the container, so it can span the markdown blocks
                // between `<details>` and `</details>`.
                let (close_depth, inline_depth) = if inline {
                    (self.block_depth, self.inline_depth)
                } else {
                    (self.block_depth.saturating_sub(1), 0)
                };
                let scope = match self.scopes.last_mut() {
                    Some(scope)
                        if scope.close_depth == close_depth
                            && scope.inline_depth == inline_depth =>
                    {
                        scope
                    }
                    _ => {
                        self.scopes.push(Scope::new(close_depth, inline_depth));
                        self.scopes.last_mut().expect("just pushed")
                    }
                };
                scope.spans_blocks |= !inline;
                scope.push_raw(html);
                if scope.is_too_deep() {
                    self.close_scope();
                } else if !inline {
                    // (A block's raw HTML ends its line as written: a block
                    // after it, inside the scope of an element it left open,
                    // starts on the next line, as after a scope closed.)
                    self.end_newline = html.ends_with('\n');
                }
            }
        }
    }

    fn start_html_block(&mut self) {
        if self.options.raw_html.effective() == RawHtml::Escape {
            self.ensure_newline_before("<p>");
        }
    }

    fn end_html_block(&mut self) {
        if self.options.raw_html.effective() == RawHtml::Escape {
            // Trailing newline of the block stays inside the paragraph.
            self.write("</p>\n");
        }
    }

    /// Writes `s`, which ends the opening tag of one of our inline
    /// elements: raw HTML from here to the element's end gets a scope of
    /// its own.
    fn start_inline(&mut self, s: &str) {
        self.write(s);
        self.inline_depth += 1;
    }

    /// Writes the closing tag `s` of one of our inline elements, after the
    /// raw HTML opened inside it, which its scope closes: no raw element
    /// crosses the end of one of ours.
    fn end_inline(&mut self, s: &str) {
        self.leave_inline();
        self.write(s);
    }

    /// Closes the scopes of the raw HTML inside the innermost open inline
    /// element of ours, which ends.
    fn leave_inline(&mut self) {
        while self
            .scopes
            .last()
            .is_some_and(|s| s.inline_depth > 0 && s.inline_depth >= self.inline_depth)
        {
            self.close_scope();
        }
        self.inline_depth = self.inline_depth.saturating_sub(1);
    }

    /// Before a block's end tag: close the scope this block owns.
    fn before_block_end(&mut self) {
        while let Some(scope) = self
            .scopes
            .last()
            .filter(|s| s.close_depth >= self.block_depth)
        {
            self.closed_open_html_block |= scope.spans_blocks && !scope.is_balanced();
            self.close_scope();
        }
    }

    /// After a child block of a scope's container ends: close the scope if
    /// its raw tags have balanced.
    fn after_block_end(&mut self) {
        while self
            .scopes
            .last()
            .is_some_and(|s| s.close_depth == self.block_depth && s.is_balanced())
        {
            self.close_scope();
        }
    }

    fn close_scope(&mut self) {
        let Some(scope) = self.scopes.pop() else {
            return;
        };
        let options = self.options;
        let sanitizer = self
            .sanitizer
            .get_or_insert_with(|| Sanitizer::new(options.link_rel.as_deref(), options.images));
        let html = scope.finish(sanitizer);
        let end_newline = self.end_newline;
        self.write(&html);
        if html.is_empty() {
            self.end_newline = end_newline;
        }
    }
}

/// Writes a code block's start tags, `lang` its language (the info
/// string's first word, escaped here) or none: the stream's inline subset
/// writes an empty code block with it too.
pub(crate) fn write_code_block_start(out: &mut String, lang: &str) {
    if lang.is_empty() {
        out.push_str("<pre><code>");
    } else {
        out.push_str("<pre><code class=\"language-");
        // Writing to a String cannot fail.
        let _ = escape_html(&mut *out, lang);
        out.push_str("\">");
    }
}

#[cfg(test)]
mod tests {
    use crate::{render, Images, Mode, Options, RawHtml, Source};

    fn html(md: &str, options: &Options) -> String {
        render(md, options).html
    }

    #[test]
    fn footnote_ids_carry_the_prefix() {
        let out = html(
            "a[^n]\n\n[^n]: note",
            &Options::default().with_id_prefix("msg-7-"),
        );
        assert!(out.contains(r##"<a href="#msg-7-n">1</a>"##), "{out}");
        assert!(
            out.contains(r#"<div class="footnote-definition" id="msg-7-n">"#),
            "{out}"
        );
        let default = html("a[^n]\n\n[^n]: note", &Options::default());
        assert!(default.contains(r#"id="user-content-n""#), "{default}");
    }

    #[test]
    fn rel_and_target_only_on_other_origins() {
        let options = Options::default().with_link_target(Some("_blank".into()));
        assert_eq!(
            html("[a](https://x.example/) [b](/local) [c](#frag)", &options),
            concat!(
                r#"<p><a href="https://x.example/" rel="noopener noreferrer nofollow" target="_blank">a</a> "#,
                r##"<a href="/local">b</a> <a href="#frag">c</a></p>"##,
                "\n"
            )
        );
    }

    #[test]
    fn refused_images_become_their_alt_text() {
        assert_eq!(
            html(
                "![a *b*](javascript:x) ![ok](/i.png \"t\")",
                &Options::default()
            ),
            "<p>a <em>b</em> <img src=\"/i.png\" alt=\"ok\" title=\"t\" /></p>\n"
        );
        // An image in the alt text of a refused one is an image of its own.
        assert_eq!(
            html("![a ![b](/x) c](javascript:y) d", &Options::default()),
            "<p>a <img src=\"/x\" alt=\"b\" /> c d</p>\n"
        );
    }

    #[test]
    fn images_can_be_links_or_alt_text_instead() {
        let link = Options::default().with_images(Images::Link);
        let rel = r#" rel="noopener noreferrer nofollow""#;
        for (md, expected) in [
            (
                "![a *b*](https://x/i.png \"t\")",
                format!(r#"<a href="https://x/i.png" title="t"{rel}>a <em>b</em></a>"#),
            ),
            // Relative: no rel. Empty alt text: the URL is the link's text.
            ("![](/i.png)", r#"<a href="/i.png">/i.png</a>"#.to_owned()),
            // No `<a>` inside another: a link's image, a link in alt text.
            (
                "[![a](https://x/i.png)](/page)",
                r#"<a href="/page">a</a>"#.to_owned(),
            ),
            (
                "![a [b](/c) <https://d/>](/i.png)",
                r#"<a href="/i.png">a b https://d/</a>"#.to_owned(),
            ),
            ("![a](javascript:x)", "a".to_owned()),
            (
                "![a ![b](/x) c](/y) d",
                r#"<a href="/y">a b c</a> d"#.to_owned(),
            ),
        ] {
            assert_eq!(html(md, &link), format!("<p>{expected}</p>\n"), "{md}");
        }
        let cited = html(r#"<cite id="s">![a](/i.png)</cite>"#, &link);
        assert!(
            cited.contains(r#"data-citation-ordinal="1">a</a>"#),
            "{cited}"
        );
        assert_eq!(cited.matches("<a ").count(), 1, "{cited}");

        let alt = Options::default().with_images(Images::Alt);
        assert_eq!(
            html("![a *b*](https://x/i.png) [![c](/i.png)](/p)", &alt),
            "<p>a <em>b</em> <a href=\"/p\">c</a></p>\n"
        );
    }

    #[cfg(feature = "sanitize")]
    #[test]
    fn raw_images_go_unless_images_are_shown() {
        let md = r#"<p>x <img src="https://x/i.png" alt="a"> <b>y</b></p>"#;
        let shown = html(md, &Options::default());
        assert!(shown.contains("<img src=\"https://x/i.png\""), "{shown}");
        for images in [Images::Link, Images::Alt] {
            let out = html(md, &Options::default().with_images(images));
            assert_eq!(out, "<p>x  <b>y</b></p>", "{images:?}");
        }
    }

    #[test]
    fn tables_align_without_style_attributes() {
        let out = html("| a | b |\n|:-:|--:|\n| 1 | 2 |", &Options::default());
        assert!(
            out.contains(r#"<th align="center">a</th><th align="right">b</th>"#),
            "{out}"
        );
        assert!(!out.contains("style"), "{out}");
    }

    #[test]
    fn escaped_html_blocks_read_as_paragraphs() {
        let options = Options::default().with_raw_html(RawHtml::Escape);
        assert_eq!(
            html("<div>\nx\n</div>", &options),
            "<p>&lt;div&gt;\nx\n&lt;/div&gt;</p>\n"
        );
    }

    #[test]
    fn details_wrapping_markdown_is_sanitized_as_one_fragment() {
        let md = "<details onclick=\"x\">\n<summary>More</summary>\n\n- **a** [1]\n\n</details>\n\nafter";
        let out = html(md, &Options::default());
        assert!(
            out.starts_with(
                "<details>\n<summary>More</summary>\n<ul>\n<li><strong>a</strong> <sup>"
            ),
            "{out}"
        );
        assert!(
            out.ends_with("</details>\n<p>after</p>\n")
                || out.ends_with("</details><p>after</p>\n"),
            "{out}"
        );
    }

    #[test]
    fn unclosed_raw_tags_end_with_their_paragraph() {
        assert_eq!(
            html("a <b>bold\n\nnext", &Options::default()),
            "<p>a <b>bold</b></p>\n<p>next</p>\n"
        );
        // Headings and table cells end theirs too.
        assert_eq!(
            html("# a <b>x\nnext", &Options::default()),
            "<h1>a <b>x</b></h1>\n<p>next</p>\n"
        );
        assert_eq!(
            html(
                "| a <b>x | y |\n|---|---|\n| <i>1 | 2 |",
                &Options::default()
            ),
            concat!(
                "<table><thead><tr><th>a <b>x</b></th><th>y</th></tr></thead><tbody>\n",
                "<tr><td><i>1</i></td><td>2</td></tr>\n</tbody></table>\n"
            )
        );
    }

    /// Fuzzing finding 5: inside a link or a citation element, raw tags
    /// that are not phrasing go (their text stays): a browser would end the
    /// paragraph at a `<div>` and reopen the `<a>` inside it, two elements
    /// for one citation; a raw `<a>` would nest anchors.
    #[cfg(feature = "sanitize")]
    #[test]
    fn links_and_citations_hold_only_phrasing_raw_tags() {
        let options = Options::default();
        let cite = |label: &str| {
            format!(
                "<a class=\"citation citation-unresolved\" title=\"{label}\" data-citation-key=\"3\" \
                 data-citation-kind=\"cite\" data-citation-ordinal=\"1\">"
            )
        };
        for (md, expected) in [
            (
                r#"<cite id="3"><div>e</cite>"#,
                format!("{}e</a>", cite("e")),
            ),
            (
                r#"<cite id="3">a <b>b</b> <p>c</p> <a href="https://z/">d</a></cite>"#,
                format!("{}a <b>b</b> c d</a>", cite("a b c d")),
            ),
            (
                "[x <div>y</div> <i>z</i>](u)",
                r#"<a href="u">x y <i>z</i></a>"#.to_owned(),
            ),
            // Outside an anchor, raw block tags are as they were.
            ("*a <div>b</div>*", "<em>a <div>b</div></em>".to_owned()),
        ] {
            assert_eq!(html(md, &options), format!("<p>{expected}</p>\n"), "{md}");
        }
    }

    /// A block after an indented raw HTML block, inside an element the HTML
    /// left open, starts on the next line, as at the top level (and as
    /// GitHub's renderer writes it), not after a blank line.
    #[cfg(feature = "sanitize")]
    #[test]
    fn a_block_after_indented_raw_html_in_an_open_element_starts_on_the_next_line() {
        let options = Options::default();
        assert_eq!(
            html("<div>\n\n  <h1>w</h1>\n\nx\n\n</div>\n", &options),
            "<div>\n  <h1>w</h1>\n<p>x</p>\n</div>\n"
        );
        assert_eq!(
            html("  <h1>w</h1>\n\nx\n", &options),
            "  <h1>w</h1>\n<p>x</p>\n"
        );
    }

    /// Issue 23: raw HTML opened inside one of our inline elements is
    /// closed before that element's end, and a raw end tag inside one
    /// closes nothing opened outside it.
    #[cfg(feature = "sanitize")]
    #[test]
    fn raw_html_never_crosses_our_inline_elements() {
        let options = Options::default();
        for (md, expected) in [
            ("~~a <sup>b~~ c", "<del>a <sup>b</sup></del> c"),
            ("*a <p>b* c", "<em>a <p>b</p></em> c"),
            ("**a <i>b** c", "<strong>a <i>b</i></strong> c"),
            ("[a <b>x](u) y", r#"<a href="u">a <b>x</b></a> y"#),
            // Through ammonia (attributes), not only the simple-tag path.
            (
                r#"*a <span title="t">b* c"#,
                r#"<em>a <span title="t">b</span></em> c"#,
            ),
            (
                r#"*a <a href="https://z/">b* c</a>"#,
                r#"<em>a <a href="https://z/" rel="noopener noreferrer nofollow">b</a></em> c"#,
            ),
            // Each level closes its own.
            (
                "*a <b>x **y <i>z** w* v",
                "<em>a <b>x <strong>y <i>z</i></strong> w</b></em> v",
            ),
            // An end tag for a raw element opened outside is dropped; the
            // element ends with its paragraph.
            ("<b>a *c</b> d*", "<b>a <em>c d</em></b>"),
            ("*<b>a* b</b>", "<em><b>a</b></em> b"),
            // An unclosed `<script>` inside emphasis no longer swallows the
            // raw HTML after it.
            ("*a <script>x* <b>y</b>", "<em>a x</em> <b>y</b>"),
            // Properly nested raw HTML is as it was.
            ("*a <b>x</b> y* <i>z</i>", "<em>a <b>x</b> y</em> <i>z</i>"),
            (
                "<span>a *b <b>c</b>* d</span>",
                "<span>a <em>b <b>c</b></em> d</span>",
            ),
        ] {
            assert_eq!(html(md, &options), format!("<p>{expected}</p>\n"), "{md}");
        }
        assert_eq!(
            html("# a *b <i>c* d", &options),
            "<h1>a <em>b <i>c</i></em> d</h1>\n"
        );
        assert_eq!(
            html("| h |\n|---|\n| *a <b>x* y |", &options),
            concat!(
                "<table><thead><tr><th>h</th></tr></thead><tbody>\n",
                "<tr><td><em>a <b>x</b></em> y</td></tr>\n</tbody></table>\n"
            )
        );
        // An image written as a link.
        assert_eq!(
            html(
                "![a <b>x](https://u.png) y",
                &Options::default().with_images(Images::Link)
            ),
            "<p><a href=\"https://u.png\" rel=\"noopener noreferrer nofollow\">a <b>x</b></a> y</p>\n"
        );
    }

    #[cfg(feature = "sanitize")]
    #[test]
    fn raw_html_never_crosses_citation_elements() {
        let options = Options::default().with_sources(vec![Source::with_id("s")
            .with_title("S")
            .with_href("https://x/")]);
        let attributes = concat!(
            r#"href="https://x/" title="S" rel="noopener noreferrer nofollow" "#,
            r#"data-citation-key="s" data-citation-kind="cite" data-citation-ordinal="1""#
        );
        assert_eq!(
            html(r#"<cite id="s">a <b>x</cite> y"#, &options),
            format!("<p><a class=\"citation\" {attributes}>a <b>x</b></a> y</p>\n")
        );
        assert_eq!(
            html(
                r#"<cite id="s">a <b>x</cite> y"#,
                &options.with_mode(Mode::Button)
            ),
            concat!(
                r#"<p><button type="button" class="citation" title="S" "#,
                r#"data-citation-key="s" data-citation-kind="cite" data-citation-ordinal="1">"#,
                "a <b>x</b></button> y</p>\n"
            )
        );
    }
}
