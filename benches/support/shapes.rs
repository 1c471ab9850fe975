//! The shapes LLM answers come in, generated to a size: one long fenced
//! code block, one table, one long list, a long block quote, a `<details>`
//! section, footnotes and reference links defined at the very end, prose
//! with brackets that are not citation markers, prose written without
//! spaces (Chinese, whose words end at `。`, `，` and the like), numbered
//! steps each holding a code block, and many short paragraphs (the
//! baseline). `benches/shapes.rs` streams each to see
//! whether the cost stays linear.
//!
//! Every generator is deterministic (a fixed xorshift seeded by the shape's
//! name), writes prose that reads like an answer (varied words, some `[1]`
//! markers, `**bold**` and `code`) and stops at the first line boundary at
//! or after the size asked for.

/// Every shape, in the order they are reported.
pub const SHAPES: &[&str] = &[
    "short-paragraphs",
    "fenced-code",
    "indented-code",
    "table",
    "tight-list",
    "loose-list",
    "nested-list",
    "blockquote",
    "details",
    "footnotes",
    "late-reference",
    "bracketed-prose",
    "cjk-prose",
    "steps-with-code",
];

/// The markdown of shape `name`, at least `size` bytes and ending at a line
/// boundary; `None` for a name that is not a shape.
pub fn shape(name: &str, size: usize) -> Option<String> {
    let mut g = Gen::new(name);
    let text = match name {
        "short-paragraphs" => short_paragraphs(&mut g, size),
        "fenced-code" => fenced_code(&mut g, size),
        "indented-code" => indented_code(&mut g, size),
        "table" => table(&mut g, size),
        "tight-list" => tight_list(&mut g, size),
        "loose-list" => loose_list(&mut g, size),
        "nested-list" => nested_list(&mut g, size),
        "blockquote" => blockquote(&mut g, size),
        "details" => details(&mut g, size),
        "footnotes" => footnotes(&mut g, size),
        "late-reference" => late_reference(&mut g, size),
        "bracketed-prose" => bracketed_prose(&mut g, size),
        "cjk-prose" => cjk_prose(&mut g, size),
        "steps-with-code" => steps_with_code(&mut g, size),
        _ => return None,
    };
    Some(text)
}

/// One paragraph being typed: sentences on a single line, no blank line,
/// at least `size` bytes, ending in a newline.
pub fn single_paragraph(size: usize) -> String {
    let mut g = Gen::new("single-paragraph");
    let mut text = String::new();
    while text.len() < size {
        if !text.is_empty() {
            text.push(' ');
        }
        g.sentence(&mut text);
    }
    text.push('\n');
    text
}

/// [`single_paragraph`] in Chinese: [`cjk_prose`]'s sentences on one line,
/// no spaces, ending in a newline.
pub fn single_cjk_paragraph(size: usize) -> String {
    let mut g = Gen::new("single-cjk-paragraph");
    let mut text = String::new();
    while text.len() < size {
        cjk_sentence(&mut g, &mut text);
    }
    text.push('\n');
    text
}

const NOUNS: &[&str] = &[
    "revenue",
    "conversion",
    "latency",
    "rollout",
    "checkout",
    "churn",
    "pipeline",
    "forecast",
    "cohort",
    "region",
    "quarter",
    "migration",
    "index",
    "cache",
    "request",
    "budget",
    "renewal",
    "contract",
    "dashboard",
    "query",
    "funnel",
    "margin",
    "backlog",
    "release",
    "schema",
    "replica",
    "invoice",
    "customer",
    "segment",
    "baseline",
    "threshold",
    "incident",
    "trial",
    "account",
    "workload",
    "deployment",
    "estimate",
    "survey",
    "metric",
    "sample",
];
const VERBS: &[&str] = &[
    "fell",
    "rose",
    "shifted",
    "stalled",
    "recovered",
    "doubled",
    "slipped",
    "improved",
    "dropped",
    "grew",
    "lagged",
    "spiked",
    "settled",
    "narrowed",
    "widened",
    "held",
];
const ADJECTIVES: &[&str] = &[
    "quarterly",
    "regional",
    "median",
    "self-serve",
    "enterprise",
    "weekly",
    "nightly",
    "largest",
    "smaller",
    "constant-currency",
    "cold",
    "warm",
    "stale",
    "new",
    "legacy",
    "annual",
];
const ADVERBS: &[&str] = &[
    "sharply",
    "slightly",
    "steadily",
    "briefly",
    "mostly",
    "again",
    "unexpectedly",
    "overall",
];
const CONNECTIVES: &[&str] = &[
    "after", "because", "while", "although", "once", "since", "before", "until",
];
const PLACES: &[&str] = &[
    "in EMEA",
    "in DACH",
    "in the Nordics",
    "across APAC",
    "in North America",
    "on mobile",
    "for new accounts",
    "in the US-East cluster",
    "during the pilot",
    "after the freeze",
];
const CODE: &[&str] = &[
    "VAT_ID",
    "retry_after",
    "p95_ms",
    "max_connections",
    "region_id",
    "fx_rate",
    "checkout_v2",
    "SELECT",
    "--dry-run",
    "Cargo.toml",
    "trial_days",
    "cache_hit",
];
const BRACKETED: &[&str] = &[
    "[citation needed]",
    "[sic]",
    "[emphasis added]",
    "[see below]",
    "[not shown]",
    "[estimate]",
    "[redacted]",
    "[TODO: confirm]",
    "[in EUR]",
    "[approx.]",
];

/// A small deterministic word source.
struct Gen {
    state: u64,
}

impl Gen {
    fn new(seed: &str) -> Self {
        // FNV-1a of the name, never zero (xorshift would stay at zero).
        let mut state = 0xcbf2_9ce4_8422_2325_u64;
        for byte in seed.bytes() {
            state = (state ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
        Gen { state: state | 1 }
    }

    fn next(&mut self) -> u64 {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.state
    }

    /// 0..n.
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, words: &[&'a str]) -> &'a str {
        words[self.below(words.len())]
    }

    fn number(&mut self) -> String {
        match self.below(4) {
            0 => format!("{}.{}%", self.below(30), self.below(10)),
            1 => format!("€{}k", 10 + self.below(900)),
            2 => format!("{} ms", 5 + self.below(400)),
            _ => format!("{}", 2 + self.below(5000)),
        }
    }

    /// A noun phrase, sometimes bold or code.
    fn phrase(&mut self, out: &mut String) {
        let phrase = format!("{} {}", self.pick(ADJECTIVES), self.pick(NOUNS));
        match self.below(10) {
            0 => out.push_str(&format!("**{phrase}**")),
            1 => out.push_str(&format!("`{}`", self.pick(CODE))),
            _ => out.push_str(&phrase),
        }
    }

    /// A clause: subject, verb, maybe an adverb, a place or a number.
    fn clause(&mut self, out: &mut String) {
        out.push_str("the ");
        self.phrase(out);
        out.push(' ');
        out.push_str(self.pick(VERBS));
        if self.chance(40) {
            out.push(' ');
            out.push_str(self.pick(ADVERBS));
        }
        if self.chance(50) {
            out.push(' ');
            out.push_str(self.pick(PLACES));
        }
        if self.chance(35) {
            let number = self.number();
            out.push_str(" to **");
            out.push_str(&number);
            out.push_str("**");
        }
    }

    /// A sentence ending in a period, with a `[n]` marker one time in four.
    fn sentence(&mut self, out: &mut String) {
        let start = out.len();
        self.clause(out);
        if self.chance(45) {
            out.push(' ');
            out.push_str(self.pick(CONNECTIVES));
            out.push(' ');
            self.clause(out);
        }
        // Capitalize the first letter ("the" always starts a clause).
        out.replace_range(start..start + 1, "T");
        if self.chance(25) {
            out.push_str(&format!(" [{}]", 1 + self.below(5)));
        }
        out.push('.');
    }

    /// `count` sentences separated by spaces.
    fn sentences(&mut self, out: &mut String, count: usize) {
        for i in 0..count {
            if i > 0 {
                out.push(' ');
            }
            self.sentence(out);
        }
    }

    /// A paragraph of 2-4 sentences, wrapped onto lines of ~2 sentences as
    /// models often write them, ending in a newline.
    fn paragraph(&mut self, out: &mut String, prefix: &str) {
        let count = 2 + self.below(3);
        for i in 0..count {
            if i % 2 == 0 {
                out.push_str(prefix);
            } else {
                out.push(' ');
            }
            self.sentence(out);
            if i % 2 == 1 || i + 1 == count {
                out.push('\n');
            }
        }
    }

    /// A varied line of Rust at `indent` levels.
    fn code_line(&mut self, out: &mut String, indent: usize) {
        for _ in 0..indent {
            out.push_str("    ");
        }
        let noun = self.pick(NOUNS).replace('-', "_");
        let other = self.pick(NOUNS).replace('-', "_");
        let line = match self.below(8) {
            0 => format!("let {noun} = {other}.iter().map(|x| x * {}).sum::<u64>();", self.below(100)),
            1 => format!("if {noun}.len() > {} && !{other}.is_empty() {{ return Err(Error::{}); }}", self.below(4096), capitalize(&other)),
            2 => format!("// {} [{}]: keep the {} {} stable", self.pick(ADJECTIVES), 1 + self.below(5), noun, other),
            3 => format!("{noun}.insert(\"{}\".to_owned(), {other}.get({}).copied().unwrap_or_default());", self.pick(CODE), self.below(64)),
            4 => format!("let {noun}_ms = started.elapsed().as_millis() as f64 / {}.0;", 1 + self.below(9)),
            5 => format!("println!(\"{{}} {} <{}> {{:?}}\", {noun}, {other});", self.pick(VERBS), self.pick(CODE)),
            6 => format!("match {noun} {{ Some(v) if v > {} => v, _ => {other}_default() }};", self.below(500)),
            _ => format!("fn {noun}_{}(&self, {other}: &[u8]) -> Option<usize> {{ {other}.iter().position(|&b| b == b'*') }}", self.pick(VERBS)),
        };
        out.push_str(&line);
        out.push('\n');
    }
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn short_paragraphs(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        if !text.is_empty() {
            text.push('\n');
        }
        let count = 1 + g.below(2);
        g.sentences(&mut text, count);
        text.push('\n');
    }
    text
}

fn fenced_code(g: &mut Gen, size: usize) -> String {
    let mut text = String::from("```rust\n");
    let mut depth = 0;
    while text.len() + 4 < size {
        g.code_line(&mut text, depth);
        depth = (depth + g.below(3)).saturating_sub(1).min(3);
    }
    text.push_str("```\n");
    text
}

fn indented_code(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    let mut depth = 1;
    while text.len() < size {
        g.code_line(&mut text, depth);
        depth = (depth + g.below(3)).saturating_sub(1).clamp(1, 4);
    }
    text
}

fn table(g: &mut Gen, size: usize) -> String {
    let mut text = String::from(
        "| Driver | Impact | Share | Evidence |\n|:-------|-------:|------:|:---------|\n",
    );
    while text.len() < size {
        text.push_str("| ");
        g.phrase(&mut text);
        text.push(' ');
        text.push_str(g.pick(VERBS));
        if g.chance(30) {
            text.push(' ');
            text.push_str(g.pick(PLACES));
        }
        let (impact, share) = (g.number(), g.below(100));
        text.push_str(&format!(" | −{impact} | {share}% | "));
        match g.below(4) {
            0 => text.push_str(&format!("[{}]", 1 + g.below(5))),
            1 => text.push_str(&format!("[{}][{}]", 1 + g.below(5), 1 + g.below(5))),
            2 => text.push_str(&format!("`{}`", g.pick(CODE))),
            _ => text.push_str(&format!("{} {}", g.pick(ADJECTIVES), g.pick(NOUNS))),
        }
        text.push_str(" |\n");
    }
    text
}

fn tight_list(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        text.push_str("- ");
        g.sentence(&mut text);
        text.push('\n');
    }
    text
}

/// Numbered steps as answers write them: a sentence, then a code block
/// inside the item (each item `1.`, numbered by the list).
fn steps_with_code(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        text.push_str("1. ");
        g.sentence(&mut text);
        text.push_str("\n\n   ```rust\n");
        let mut depth = 0;
        for _ in 0..5 + g.below(20) {
            text.push_str("   ");
            g.code_line(&mut text, depth);
            depth = (depth + g.below(3)).saturating_sub(1).min(3);
        }
        text.push_str("   ```\n\n");
    }
    text
}

fn loose_list(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    let mut item = 0;
    while text.len() < size {
        if item > 0 {
            text.push('\n');
        }
        item += 1;
        text.push_str(&format!("{item}. "));
        let count = 1 + g.below(2);
        g.sentences(&mut text, count);
        text.push('\n');
    }
    text
}

fn nested_list(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        text.push_str("- ");
        g.sentence(&mut text);
        text.push('\n');
        for _ in 0..g.below(4) {
            text.push_str("  - ");
            g.clause(&mut text);
            text.push('\n');
            for _ in 0..g.below(3) {
                text.push_str("    - ");
                g.phrase(&mut text);
                text.push('\n');
            }
        }
    }
    text
}

fn blockquote(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        if !text.is_empty() {
            text.push_str(">\n");
        }
        g.paragraph(&mut text, "> ");
    }
    text
}

fn details(g: &mut Gen, size: usize) -> String {
    const END: &str = "\n</details>\n";
    let mut text = String::from("<details><summary>More</summary>\n");
    while text.len() + END.len() < size {
        text.push('\n');
        if g.chance(25) {
            for _ in 0..2 + g.below(4) {
                text.push_str("- ");
                g.sentence(&mut text);
                text.push('\n');
            }
        } else {
            g.paragraph(&mut text, "");
        }
    }
    text.push_str(END);
    text
}

fn footnotes(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    let mut notes = String::new();
    let mut n = 0;
    while text.len() + notes.len() < size {
        n += 1;
        let count = 1 + g.below(3);
        g.sentences(&mut text, count);
        text.pop(); // the period goes after the reference
        text.push_str(&format!("[^{n}]. "));
        g.sentence(&mut text);
        text.push_str("\n\n");
        notes.push_str(&format!("[^{n}]: "));
        g.sentence(&mut notes);
        notes.push('\n');
    }
    text.push_str(&notes);
    text
}

fn late_reference(g: &mut Gen, size: usize) -> String {
    const LABELS: &[(&str, &str)] = &[
        ("guide", "g"),
        ("the runbook", "runbook"),
        ("rollout notes", "notes"),
        ("the FX table", "fx"),
        ("the dashboard", "dash"),
        ("last quarter's review", "q2"),
    ];
    let mut text = String::new();
    while text.len() < size {
        let count = 1 + g.below(3);
        g.sentences(&mut text, count);
        let (words, label) = LABELS[g.below(LABELS.len())];
        text.push_str(&format!(" See [{words}][{label}] for the details.\n\n"));
    }
    for (i, (_, label)) in LABELS.iter().enumerate() {
        text.push_str(&format!(
            "[{label}]: https://docs.example.com/{label}/{i} \"{}\"\n",
            capitalize(label)
        ));
    }
    text
}

fn bracketed_prose(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        if !text.is_empty() {
            text.push('\n');
        }
        let count = 1 + g.below(3);
        for i in 0..count {
            if i > 0 {
                text.push(' ');
            }
            g.sentence(&mut text);
            if g.chance(50) {
                text.pop();
                text.push(' ');
                text.push_str(g.pick(BRACKETED));
                text.push('.');
            }
        }
        text.push('\n');
    }
    text
}

/// Phrases of Chinese prose, for [`cjk_prose`].
const CJK_PHRASES: &[&str] = &[
    "本季度的收入",
    "新版本的延迟",
    "结账流程的转化率",
    "华东地区的客户",
    "数据库迁移",
    "缓存命中率",
    "续约合同的数量",
    "监控面板上的请求",
    "试用账户",
    "预算的阈值",
    "比上个月明显提高",
    "在高峰时段有所下降",
    "主要集中在周末",
    "仍然低于预期",
    "需要进一步分析",
    "与去年同期基本持平",
];

/// Paragraphs of Chinese, as models write them: no spaces, one line of 4
/// to 12 sentences each, clauses joined by `，` and ended by `。`, with
/// `**bold**` figures and `[n]` markers.
fn cjk_prose(g: &mut Gen, size: usize) -> String {
    let mut text = String::new();
    while text.len() < size {
        if !text.is_empty() {
            text.push('\n');
        }
        for _ in 0..4 + g.below(9) {
            cjk_sentence(g, &mut text);
        }
        text.push('\n');
    }
    text
}

/// A sentence of [`cjk_prose`]: two phrases, maybe a bold figure and a
/// marker, then `。`.
fn cjk_sentence(g: &mut Gen, text: &mut String) {
    text.push_str(g.pick(CJK_PHRASES));
    text.push('，');
    text.push_str(g.pick(CJK_PHRASES));
    if g.chance(30) {
        // (Figures as Chinese writes them; a currency sign after a letter
        // opens no emphasis, and its asterisks stay.)
        let figure = match g.below(5) {
            0 => format!("{}.{}%", g.below(30), g.below(10)),
            1 => format!("{}万", 2 + g.below(900)),
            2 => format!("{}毫秒", 5 + g.below(400)),
            3 => format!("¥{}万", 2 + g.below(90)),
            _ => format!("{}", 2 + g.below(5000)),
        };
        text.push_str(&format!("，达到**{figure}**"));
    }
    if g.chance(25) {
        text.push_str(&format!("[{}]", 1 + g.below(5)));
    }
    text.push('。');
}
