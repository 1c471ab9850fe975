//! The wasm-bindgen shell the npm package is built from (feature `wasm`).
//!
//! A thin layer with no logic of its own: values cross the boundary as JSON
//! text (the package's JavaScript glue runs `JSON.stringify` on the way in
//! and `JSON.parse` on the way out), except HTML, which crosses as a plain
//! string (escaping it into JSON and parsing it back would cost more than
//! rendering it), and a patch's steps, which cross as numbers in UTF-16
//! units (see [`Parts::take_steps`]); every function maps to one crate
//! call. An `Err` is a one-line message naming the bad value's path
//! ([`Error::message_at`](crate::Error::message_at)); the glue throws it as
//! a JS `TypeError`. Nothing here panics, except in the test-only feature
//! `test-trap` (`test_trap`), which is never built into the package. The
//! provider adapters have a shell of their own (`wasm_adapters`, feature
//! `wasm-adapters`), so that the lite wasm can leave them out.

use wasm_bindgen::prelude::wasm_bindgen;

use crate::{
    CodeLine, HeldKind, ItemCode, ItemLine, Options, Patch, Rendered, Step, Stream, TailChange,
    Typing,
};

/// A result in parts: HTML (`html` of a render, `append` of a patch), a
/// patch's `steps`, `tail`, `rewind`, `mark` and `empty`, and the
/// citations as JSON. Each part is taken once.
#[wasm_bindgen]
pub struct Parts {
    html: String,
    steps: Vec<u32>,
    tail: Option<String>,
    citations: String,
    /// `Patch.rewind` (bit 0) and `Patch.mark` (bit 1).
    flags: u32,
    /// `Patch.empty`.
    empty: Option<u32>,
}

/// `Parts::flags`: the patch withdraws what was appended since the mark.
const REWIND: u32 = 1;
/// `Parts::flags`: the patch marks what was appended so far as final.
const MARK: u32 = 2;

#[wasm_bindgen]
impl Parts {
    /// The HTML (`Rendered.html`, `Patch.append`).
    #[wasm_bindgen(js_name = takeHtml)]
    pub fn take_html(&mut self) -> String {
        std::mem::take(&mut self.html)
    }

    /// `Patch.steps` as pairs `[kind, length, kind, length, …]`: kind 0
    /// opens an element, 1 is balanced HTML, 2 closes the innermost open
    /// element; lengths in UTF-16 code units of `append` (a JS string's
    /// indices), not the crate's UTF-8 bytes. Empty for a render.
    #[wasm_bindgen(js_name = takeSteps)]
    pub fn take_steps(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.steps)
    }

    /// `Patch.rewind` (bit 0) and `Patch.mark` (bit 1); 0 for a render.
    pub fn flags(&self) -> u32 {
        self.flags
    }

    /// `Patch.empty`: the citations to keep when the innermost open
    /// element is emptied; `undefined` when it is not (and for a render).
    pub fn empty(&self) -> Option<u32> {
        self.empty
    }

    /// `Patch.tail`; `undefined` when deferred or for a render.
    #[wasm_bindgen(js_name = takeTail)]
    pub fn take_tail(&mut self) -> Option<String> {
        self.tail.take()
    }

    /// The citation index (render) or occurrences (patch), as JSON.
    #[wasm_bindgen(js_name = takeCitations)]
    pub fn take_citations(&mut self) -> String {
        std::mem::take(&mut self.citations)
    }
}

impl Parts {
    fn of_rendered(rendered: Rendered) -> Result<Parts, String> {
        Ok(Parts {
            citations: to_json(&rendered.citations)?,
            html: rendered.html,
            steps: Vec::new(),
            tail: None,
            flags: 0,
            empty: None,
        })
    }

    fn of_patch(patch: Patch) -> Result<Parts, String> {
        let flags = flags_of(&patch);
        Ok(Parts {
            citations: to_json(&patch.citations)?,
            steps: utf16_steps(&patch.append, &patch.steps),
            html: patch.append,
            tail: patch.tail,
            flags,
            // (A message of more than 4 billion citations does not fit a
            // wasm32 address space.)
            empty: patch
                .empty
                .map(|keep| u32::try_from(keep).unwrap_or(u32::MAX)),
        })
    }
}

/// `patch.rewind` and `patch.mark` as [`Parts::flags`] has them.
fn flags_of(patch: &Patch) -> u32 {
    (u32::from(patch.rewind) * REWIND) | (u32::from(patch.mark) * MARK)
}

/// `steps` (UTF-8 byte lengths of `append`) as [`Parts::take_steps`] hands
/// them over: kind and UTF-16 length, pair by pair.
fn utf16_steps(append: &str, steps: &[Step]) -> Vec<u32> {
    let mut out = Vec::with_capacity(steps.len() * 2);
    let mut at = 0;
    for step in steps {
        let (kind, len) = match *step {
            Step::Open(len) => (0, len),
            Step::Html(len) => (1, len),
            Step::Close(len) => (2, len),
        };
        let piece = append.get(at..at + len).unwrap_or_default();
        at += len;
        let units = piece.encode_utf16().count();
        out.extend([kind, u32::try_from(units).unwrap_or(u32::MAX)]);
    }
    out
}

fn to_json<T: serde::Serialize>(value: &T) -> Result<String, String> {
    serde_json::to_string(value).map_err(|e| format!("cannot write JSON: {e}"))
}

/// The input that makes a `test-trap` build panic (pkg/scripts/build.mjs
/// checks that the package's wasm does not hold it).
#[cfg(feature = "test-trap")]
const TEST_TRAP: &str = "citemark-test-trap:panic";

/// Feature `test-trap` only: panics (a trap, since the package's wasm is
/// built with panics that abort) when `input` holds [`TEST_TRAP`], standing
/// in for a bug that the JS layer must contain. Without the feature,
/// nothing.
#[cfg_attr(not(feature = "test-trap"), allow(unused_variables))]
fn test_trap(input: &str) {
    #[cfg(feature = "test-trap")]
    if input.contains(TEST_TRAP) {
        panic!("test-trap: a panic on purpose");
    }
}

fn options(options_json: &str) -> Result<Options, String> {
    Options::from_json(options_json).map_err(|e| e.message_at("options"))
}

/// `render(markdown, optionsJson)`: the HTML and the citation index.
#[wasm_bindgen]
pub fn render(markdown: &str, options_json: &str) -> Result<Parts, String> {
    test_trap(markdown);
    Parts::of_rendered(crate::render(markdown, &options(options_json)?))
}

/// A [`Stream`] for JS.
#[wasm_bindgen]
pub struct WasmStream {
    inner: Stream,
    /// The last push's patch but its tail, when it held anything: read
    /// with [`WasmStream::take_committed`] and
    /// [`WasmStream::take_committed_meta`]; empty when it held nothing.
    committed: Committed,
    /// Where the last tail change goes ([`WasmStream::change_at`]).
    change_at: u32,
}

#[wasm_bindgen]
impl WasmStream {
    /// `new WasmStream(optionsJson)`.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> Result<WasmStream, String> {
        Ok(WasmStream {
            inner: Stream::new(options(options_json)?),
            committed: Committed::default(),
            change_at: 0,
        })
    }

    /// [`Stream::push`]: the `Patch`'s `tail`; the rest of it (`append`,
    /// `steps`, `citations`, `rewind`, `mark`) waits in
    /// [`WasmStream::take_committed`]. (Most pushes commit
    /// nothing: then only the tail crosses the boundary.)
    pub fn push(&mut self, chunk: &str) -> Result<String, String> {
        test_trap(chunk);
        let mut patch = self.inner.push(chunk);
        let tail = patch.tail.take().unwrap_or_default();
        self.keep_committed(patch)?;
        Ok(tail)
    }

    /// [`Stream::push_shown`]: text the JS glue typed and showed `shown`
    /// bytes of itself, as [`WasmStream::typing`] said; its patch waits in
    /// [`WasmStream::take_committed`]; whether it holds anything. (As UTF-8,
    /// which `TextEncoder` makes of any string, ropes of typed chunks
    /// included: strings of many shapes passed through wasm-bindgen's
    /// character loop made it, and every later call, slower.)
    #[wasm_bindgen(js_name = pushShown)]
    pub fn push_shown(&mut self, typed: &[u8], shown: usize) -> Result<bool, String> {
        let typed = String::from_utf8_lossy(typed);
        test_trap(&typed);
        // (A `shown` that is not what the stream said, a char boundary or
        // not, only makes its next change a replacement.)
        let patch = self.inner.push_shown(&typed, shown);
        self.keep_committed(patch)
    }

    /// [`Stream::typing`] in one number: 0 for [`Typing::Pushed`], else
    /// the kind in the low 2 bits (1 [`Typing::Verbatim`], 2
    /// [`Typing::Words`], 3 [`Typing::HeldLine`] or [`Typing::Held`], which
    /// says its kind in the next 2 bits: 1 [`HeldKind::Url`], 2
    /// [`HeldKind::Tag`], 0 and the bit above set [`HeldKind::Label`]; 3
    /// there is [`Typing::CodeSpan`], its point's depth in the 6 bits
    /// above and its `before` in the last 22), the
    /// typing point's depth
    /// in the next 6, its `before` (UTF-16 units, which are its bytes: end
    /// tags are ASCII) above them; for [`Typing::Verbatim`], at a settled
    /// or blank line, its point being 0 deep before nothing, the line
    /// there instead (0 [`CodeLine::Settled`], 1 [`CodeLine::Blank`]) and
    /// the fence's character code above (0: none); for
    /// [`Typing::CodeIn`] (at a settled line), kind 1 and line 3, then its
    /// point's depth in the next 6 bits, the block's indentation in the 6
    /// above (0: line breaks are pushed, [`ItemCode`]), its closing
    /// indentation less that in the 2 above, whether its fence is `~` in
    /// the next, and its point's `before` above. (A point or a block past
    /// what that holds, which no tail reaches, is 0: pushed; a block, no
    /// block.)
    pub fn typing(&self) -> u32 {
        let typing = self.inner.typing();
        // (The bits below the point's depth, where the depth goes, and how
        // many bits its `before` may take.)
        let (head, depth_at, before_bits) = match typing {
            Typing::Verbatim {
                fence,
                line: line @ (CodeLine::Settled | CodeLine::Blank),
            } => {
                let blank = u32::from(line == CodeLine::Blank);
                return 1 | blank << 2 | fence.map_or(0, u32::from) << 8;
            }
            Typing::CodeIn {
                block,
                line: ItemLine::Settled,
                ..
            } => (1 | 3 << 2 | item_code_bits(block) << 14, 8, 9),
            Typing::Words { .. } => (2, 2, 24),
            Typing::CodeSpan { .. } => (3 | 3 << 2, 4, 22),
            Typing::HeldLine => (3, 2, 24),
            Typing::Held(HeldKind::Url) => return 3 | 1 << 2,
            Typing::Held(HeldKind::Tag) => return 3 | 2 << 2,
            Typing::Held(HeldKind::Label) => return 3 | 1 << 4,
            _ => return 0,
        };
        let packed = typing.point().and_then(|(depth, before)| {
            let depth = u32::try_from(depth).ok().filter(|&depth| depth < 1 << 6)?;
            let before = u32::try_from(before)
                .ok()
                .filter(|&before| before < 1 << before_bits)?;
            Some(head | depth << depth_at | before << (32 - before_bits))
        });
        packed.unwrap_or(0)
    }

    /// [`Stream::push_deferred`]: its patch waits in
    /// [`WasmStream::take_committed`]; whether it holds anything. (Most pushes
    /// commit nothing: then JS does not ask for it.)
    #[wasm_bindgen(js_name = pushDeferred)]
    pub fn push_deferred(&mut self, chunk: &str) -> Result<bool, String> {
        test_trap(chunk);
        let patch = self.inner.push_deferred(chunk);
        self.keep_committed(patch)
    }

    /// The last push's `append`, then its `citations` as JSON when it has
    /// any (where they start is in [`WasmStream::take_committed_meta`]); empty
    /// when it committed nothing. (Two calls for a committed patch, where
    /// an object with a getter per field took eight and a finalizer.)
    #[wasm_bindgen(js_name = takeCommitted)]
    pub fn take_committed(&mut self) -> String {
        std::mem::take(&mut self.committed.text)
    }

    /// The rest of the last push's patch, in numbers: `Patch.rewind` (bit
    /// 0) and `Patch.mark` (bit 1); `Patch.empty` plus 1 (0: not set);
    /// where in [`WasmStream::take_committed`]'s text the citations
    /// start, in UTF-16 units (its length: none); then the steps as
    /// [`Parts::take_steps`] gives them.
    #[wasm_bindgen(js_name = takeCommittedMeta)]
    pub fn take_committed_meta(&mut self) -> Vec<u32> {
        std::mem::take(&mut self.committed.meta)
    }

    /// [`Stream::tail`].
    pub fn tail(&mut self) -> String {
        self.inner.tail()
    }

    /// [`Stream::tail_change`]: the HTML to insert or to replace the tail
    /// with, or `undefined` when the tail is the same; where it goes is
    /// then [`WasmStream::change_at`].
    #[wasm_bindgen(js_name = tailChange)]
    pub fn tail_change(&mut self) -> Option<String> {
        let (html, at) = match self.inner.tail_change() {
            TailChange::Insert {
                html,
                depth,
                before,
            } => match insert_at(depth, before) {
                Some(at) => (html.to_owned(), at),
                // (Past what the packing holds, which no tail reaches: the
                // whole tail, which the change was made for.)
                None => (self.inner.tail(), REPLACES),
            },
            TailChange::Replace(html) => (html.to_owned(), REPLACES),
            _ => return None,
        };
        self.change_at = at;
        Some(html)
    }

    /// Where the last [`WasmStream::tail_change`] goes, in one number (one
    /// call per push less): `0xFFFFFFFF` when it replaces the tail, else
    /// its depth in the low 8 bits and its `before` (UTF-16 units, which
    /// are its bytes: end tags are ASCII) above them.
    #[wasm_bindgen(js_name = changeAt)]
    pub fn change_at(&self) -> u32 {
        self.change_at
    }

    /// [`Stream::open_end_tags`].
    #[wasm_bindgen(js_name = openEndTags)]
    pub fn open_end_tags(&self) -> String {
        self.inner.open_end_tags().to_owned()
    }

    /// [`Stream::finish`]: the last `Patch`.
    pub fn finish(&mut self) -> Result<Parts, String> {
        Parts::of_patch(self.inner.finish())
    }

    /// [`Stream::set_sources`] from a JSON array of sources, or `null`.
    #[wasm_bindgen(js_name = setSources)]
    pub fn set_sources(&mut self, sources_json: &str) -> Result<(), String> {
        let sources =
            Options::sources_from_json(sources_json).map_err(|e| e.message_at("sources"))?;
        self.inner.set_sources(sources);
        Ok(())
    }

    /// [`Stream::citation_index`] as JSON.
    #[wasm_bindgen(js_name = citationIndex)]
    pub fn citation_index(&self) -> Result<String, String> {
        to_json(&self.inner.citation_index())
    }

    /// [`Stream::provisional_index`] as JSON.
    #[wasm_bindgen(js_name = provisionalIndex)]
    pub fn provisional_index(&self) -> Result<String, String> {
        to_json(&self.inner.provisional_index())
    }
}

/// [`WasmStream::change_at`] of a change that replaces the tail.
const REPLACES: u32 = u32::MAX;

/// [`WasmStream::change_at`] of an insert `depth` deep before `before`
/// bytes, if they fit.
fn insert_at(depth: usize, before: usize) -> Option<u32> {
    let depth = u32::try_from(depth).ok().filter(|&depth| depth < 0x100)?;
    let before = u32::try_from(before)
        .ok()
        .filter(|&before| before < 1 << 24)?;
    Some(depth | before << 8)
}

impl WasmStream {
    /// Keeps `patch` for [`WasmStream::take_committed`] unless it holds
    /// nothing; whether it holds anything.
    fn keep_committed(&mut self, patch: Patch) -> Result<bool, String> {
        let empty =
            patch.append.is_empty() && patch.citations.is_empty() && !patch.rewind && !patch.mark;
        self.committed = match empty {
            true => Committed::default(),
            false => Committed::of(patch)?,
        };
        Ok(!empty)
    }
}

/// A patch but its tail as [`WasmStream::take_committed`] and
/// [`WasmStream::take_committed_meta`] hand it over.
#[derive(Default)]
struct Committed {
    /// `append`, then the citations' JSON unless there are none.
    text: String,
    meta: Vec<u32>,
}

impl Committed {
    fn of(patch: Patch) -> Result<Committed, String> {
        let flags = flags_of(&patch);
        let steps = utf16_steps(&patch.append, &patch.steps);
        let mut text = patch.append;
        // (As UTF-16 units; a message past 4 billion of them does not fit
        // a wasm32 address space.)
        let citations_at = u32::try_from(text.encode_utf16().count()).unwrap_or(u32::MAX);
        if !patch.citations.is_empty() {
            text.push_str(&to_json(&patch.citations)?);
        }
        let empty = patch
            .empty
            .map_or(0, |keep| u32::try_from(keep).unwrap_or(u32::MAX - 1) + 1);
        let mut meta = Vec::with_capacity(3 + steps.len());
        meta.extend([flags, empty, citations_at]);
        meta.extend(steps);
        Ok(Committed { text, meta })
    }
}

/// [`ItemCode`] in 9 bits, as [`WasmStream::typing`] packs it: the
/// indentation in the low 6 (0: none), the closing indentation less it in
/// the next 2, whether the fence is `~` above; 0 for a block past that.
fn item_code_bits(block: Option<ItemCode>) -> u32 {
    let bits = block.and_then(|block| {
        let indent = u32::from(block.indent);
        let closing = u32::from(block.closing.checked_sub(block.indent)?);
        if indent == 0 || indent >= 1 << 6 || closing >= 1 << 2 {
            return None;
        }
        Some(indent | closing << 6 | u32::from(block.fence == '~') << 8)
    });
    bits.unwrap_or(0)
}
