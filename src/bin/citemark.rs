//! The `citemark` command: a thin shell over the crate's public API.
//!
//! Reads markdown from a file or stdin, renders it, prints HTML (or the
//! HTML and citation index as JSON); or streams it in chunks as it
//! arrives and prints each patch as a JSON line at once. Any error is one
//! line on stderr and a non-zero exit.

use std::fs::File;
use std::io::{ErrorKind, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use citemark::adapters::{adapt, Provider, Warning};
use citemark::{Options, Patch, Stream, TailChange};
use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(
    name = "citemark",
    version,
    about = "Render LLM markdown with citations to sanitized HTML"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render a markdown answer to HTML.
    Render(RenderArgs),
    /// Stream an answer in N-byte chunks; print each patch as a JSON line.
    Stream(StreamArgs),
}

#[derive(clap::Args)]
struct RenderArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Print {"html": …, "citations": …} instead of the HTML.
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
struct StreamArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Bytes per chunk (1 cuts inside UTF-8 characters too).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..))]
    chunk_size: u32,
    /// Write each patch's tail as its change ("tailChange": {"insert", "depth",
    /// "before"} or {"replace"}, absent when the same) instead of the whole tail.
    #[arg(long)]
    tail_changes: bool,
}

/// What both commands read: the answer and how to render it.
#[derive(clap::Args)]
struct InputArgs {
    /// The markdown file (with --from, the provider's response JSON); `-` or nothing reads stdin.
    file: Option<PathBuf>,
    /// Read FILE as a provider's raw response: openwebui, rag, gemini, openai, anthropic, perplexity or rill.
    #[arg(long, value_parser = parse_provider)]
    from: Option<Provider>,
    /// A JSON file with an array of sources, or {"sources": [...], "aliases": {...}}.
    #[arg(long)]
    sources: Option<PathBuf>,
    /// How citations are written.
    #[arg(long, value_enum, default_value_t = ModeArg::Link)]
    mode: ModeArg,
    /// In icon mode, write buttons instead of links (iframe embeds).
    #[arg(long)]
    embedded: bool,
    /// What happens to raw HTML in the markdown.
    #[arg(long, value_enum, default_value_t = RawHtmlArg::Sanitize)]
    raw_html: RawHtmlArg,
    /// What happens to images: shown, written as links, or as their alt text.
    #[arg(long, value_enum, default_value_t = ImagesArg::Show)]
    images: ImagesArg,
    /// Citation syntaxes to turn on (the opt-in copilot-markers and prompt-markers), comma-separated.
    #[arg(long, value_enum, value_delimiter = ',')]
    enable: Vec<SyntaxArg>,
    /// Citation syntaxes to turn off, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',')]
    disable: Vec<SyntaxArg>,
    /// Leave TeX math ($…$, \(…\), …) as CommonMark reads it.
    #[arg(long)]
    no_math: bool,
}

/// A switch of `Syntaxes`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SyntaxArg {
    CiteTags,
    Markers,
    ShortLinks,
    QueryLinks,
    Recovery,
    CopilotMarkers,
    PromptMarkers,
    FileSearchMarkers,
}

impl SyntaxArg {
    /// The switch this argument names in `syntaxes`.
    fn switch(self, syntaxes: &mut citemark::Syntaxes) -> &mut bool {
        match self {
            SyntaxArg::CiteTags => &mut syntaxes.cite_tags,
            SyntaxArg::Markers => &mut syntaxes.markers,
            SyntaxArg::ShortLinks => &mut syntaxes.short_links,
            SyntaxArg::QueryLinks => &mut syntaxes.query_links,
            SyntaxArg::Recovery => &mut syntaxes.recovery,
            SyntaxArg::CopilotMarkers => &mut syntaxes.copilot_markers,
            SyntaxArg::PromptMarkers => &mut syntaxes.prompt_markers,
            SyntaxArg::FileSearchMarkers => &mut syntaxes.file_search_markers,
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum ModeArg {
    Link,
    Button,
    Icon,
}

#[derive(Clone, Copy, ValueEnum)]
enum RawHtmlArg {
    Sanitize,
    Escape,
    Strip,
}

#[derive(Clone, Copy, ValueEnum)]
enum ImagesArg {
    Show,
    Link,
    Alt,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            return match write_stdout(&e.to_string()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("citemark: {message}");
                    ExitCode::FAILURE
                }
            };
        }
        Err(e) => {
            // One line: clap's first line, which names the bad argument.
            let rendered = e.to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            eprintln!("citemark: {}", first.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Render(args) => render(args).and_then(|output| write_stdout(&output)),
        Command::Stream(args) => stream(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("citemark: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Writes `text` to stdout; an error (stdout closed, as by `| head`, or
/// full) is a message, where `print!` would panic.
fn write_stdout(text: &str) -> Result<(), String> {
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(|e| format!("cannot write the output: {e}"))
}

fn parse_provider(name: &str) -> Result<Provider, String> {
    name.parse().map_err(|e: citemark::Error| e.to_string())
}

/// The markdown and options `args` describe, and an adapter's warnings
/// (already reported on stderr).
fn prepare(args: &InputArgs) -> Result<(String, Options, Vec<Warning>), String> {
    let input = read_input(args.file.as_deref())?;
    let Some(provider) = args.from else {
        return Ok((input, options(args, Options::default())?, Vec::new()));
    };
    let response: serde_json::Value = serde_json::from_str(&input)
        .map_err(|e| format!("{} response is not JSON: {e}", provider.name()))?;
    let adapted = adapt(provider, &response);
    for warning in &adapted.warnings {
        eprintln!("citemark: warning: {}: {}", warning.path, warning.message);
    }
    let options = options(args, adapted.options())?;
    Ok((adapted.markdown, options, adapted.warnings))
}

/// `base` (the defaults, or an adapter's sources) with the flags applied.
fn options(args: &InputArgs, base: Options) -> Result<Options, String> {
    let mut options = base
        .with_mode(match args.mode {
            ModeArg::Link => citemark::Mode::Link,
            ModeArg::Button => citemark::Mode::Button,
            ModeArg::Icon => citemark::Mode::Icon,
        })
        .with_embedded(args.embedded)
        .with_raw_html(match args.raw_html {
            RawHtmlArg::Sanitize => citemark::RawHtml::Sanitize,
            RawHtmlArg::Escape => citemark::RawHtml::Escape,
            RawHtmlArg::Strip => citemark::RawHtml::Strip,
        })
        .with_images(match args.images {
            ImagesArg::Show => citemark::Images::Show,
            ImagesArg::Link => citemark::Images::Link,
            ImagesArg::Alt => citemark::Images::Alt,
        })
        .with_math(!args.no_math);
    let mut syntaxes = options.syntaxes;
    for (names, on) in [(&args.enable, true), (&args.disable, false)] {
        for name in names {
            *name.switch(&mut syntaxes) = on;
        }
    }
    options = options.with_syntaxes(syntaxes);
    if let Some(path) = &args.sources {
        let json = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --sources {}: {e}", path.display()))?;
        options = options
            .with_sources_json(&json)
            .map_err(|e| format!("--sources {}: {e}", path.display()))?;
    }
    Ok(options)
}

fn render(args: RenderArgs) -> Result<String, String> {
    let (markdown, options, warnings) = prepare(&args.input)?;
    let rendered = citemark::render(&markdown, &options);
    if args.json {
        let mut json =
            serde_json::to_value(&rendered).map_err(|e| format!("cannot write JSON: {e}"))?;
        if let (Some(object), false) = (json.as_object_mut(), warnings.is_empty()) {
            object.insert("warnings".to_owned(), serde_json::json!(warnings));
        }
        serde_json::to_string_pretty(&json)
            .map(|json| json + "\n")
            .map_err(|e| format!("cannot write JSON: {e}"))
    } else {
        Ok(rendered.html)
    }
}

/// Streams the input, writing each patch as soon as it exists: from a
/// pipe, every read is pushed as it arrives (cut to `--chunk-size`), so a
/// reader sees patches while the writer is still writing, and memory stays
/// constant however long the input. A provider's response is JSON, so with
/// `--from` it is read whole first, then pushed in chunks.
fn stream(args: StreamArgs) -> Result<(), String> {
    let size = usize::try_from(args.chunk_size).unwrap_or(usize::MAX);
    let mut out = Patches {
        out: std::io::stdout().lock(),
        changes: args.tail_changes,
    };
    let mut stream = if args.input.from.is_some() {
        let (markdown, options, _) = prepare(&args.input)?;
        let mut stream = Stream::new(options);
        push_chunks(&mut stream, markdown.as_bytes(), size, &mut out)?;
        stream
    } else {
        let mut stream = Stream::new(options(&args.input, Options::default())?);
        let file = args.input.file.as_deref();
        let mut input = open_input(file)?;
        // A read returns what the pipe holds, up to this; the library joins
        // a UTF-8 character split across reads.
        let mut buffer = vec![0; 64 * 1024];
        loop {
            let read = match input.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => read,
                Err(e) if e.kind() == ErrorKind::Interrupted => continue,
                Err(e) => return Err(read_error(file, &e)),
            };
            push_chunks(&mut stream, &buffer[..read], size, &mut out)?;
        }
        stream
    };
    let last = stream.finish();
    out.write(&last, None)
}

/// A patch line with its tail's change (`--tail-changes`).
#[derive(serde::Serialize)]
struct PatchLine<'p> {
    #[serde(flatten)]
    patch: &'p Patch,
    #[serde(rename = "tailChange")]
    change: ChangeLine<'p>,
}

/// A [`TailChange`] as JSON: `{"insert", "depth", "before"}` or `{"replace"}`.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum ChangeLine<'t> {
    Insert {
        insert: &'t str,
        depth: usize,
        before: usize,
    },
    Replace {
        replace: &'t str,
    },
}

/// Where the patches go: stdout, each with its tail or its tail's change.
struct Patches<W> {
    out: W,
    changes: bool,
}

impl<W: Write> Patches<W> {
    /// Pushes `chunk` and writes its patch.
    fn push(&mut self, stream: &mut Stream, chunk: &[u8]) -> Result<(), String> {
        if !self.changes {
            return self.write(&stream.push_bytes(chunk), None);
        }
        let patch = stream.push_bytes_deferred(chunk);
        let change = match stream.tail_change() {
            TailChange::Insert {
                html,
                depth,
                before,
            } => Some(ChangeLine::Insert {
                insert: html,
                depth,
                before,
            }),
            TailChange::Replace(html) => Some(ChangeLine::Replace { replace: html }),
            _ => None,
        };
        self.write(&patch, change)
    }

    /// Writes `patch` (with `change` as its `tailChange`) as one JSON line
    /// and flushes it, so that a reader gets it now, not when a buffer
    /// fills. A closed or full stdout is an error.
    fn write(&mut self, patch: &Patch, change: Option<ChangeLine<'_>>) -> Result<(), String> {
        let out = &mut self.out;
        let written = match change {
            None => serde_json::to_writer(&mut *out, patch),
            Some(change) => serde_json::to_writer(&mut *out, &PatchLine { patch, change }),
        };
        written
            .map_err(std::io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write the output: {e}"))
    }
}

/// Pushes `bytes` in `size`-byte chunks, writing each chunk's patch.
fn push_chunks<W: Write>(
    stream: &mut Stream,
    bytes: &[u8],
    size: usize,
    out: &mut Patches<W>,
) -> Result<(), String> {
    bytes
        .chunks(size)
        .try_for_each(|chunk| out.push(stream, chunk))
}

/// Reads the whole input, decoding invalid UTF-8 lossily (never rejected).
fn read_input(file: Option<&Path>) -> Result<String, String> {
    let mut bytes = Vec::new();
    open_input(file)?
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(file, &e))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

/// FILE, or stdin for `-` or no FILE.
fn open_input(file: Option<&Path>) -> Result<Box<dyn Read>, String> {
    match file {
        Some(path) if path.as_os_str() != "-" => match File::open(path) {
            Ok(file) => Ok(Box::new(file)),
            Err(e) => Err(read_error(Some(path), &e)),
        },
        _ => Ok(Box::new(std::io::stdin().lock())),
    }
}

/// The one-line message for a failed open or read of the input.
fn read_error(file: Option<&Path>, e: &std::io::Error) -> String {
    match file {
        Some(path) if path.as_os_str() != "-" => format!("cannot read {}: {e}", path.display()),
        _ => format!("cannot read stdin: {e}"),
    }
}
