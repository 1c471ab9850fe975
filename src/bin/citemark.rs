//! The `citemark` command: a thin shell over the crate's public API.
//!
//! Reads markdown from a file or stdin, renders it, prints HTML (or the
//! HTML and citation index as JSON); or streams it in chunks and prints
//! each patch as a JSON line. Any error is one line on stderr and a
//! non-zero exit.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use citemark::adapters::{adapt, Adapted, Provider, Warning};
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
        Command::Render(args) => render(args),
        Command::Stream(args) => stream(args),
    };
    match result.and_then(|output| write_stdout(&output)) {
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
fn prepare(args: &InputArgs) -> Result<(String, citemark::Options, Vec<Warning>), String> {
    let input = read_input(args.file.as_deref())?;
    let (markdown, adapted) = match args.from {
        Some(provider) => {
            let response: serde_json::Value = serde_json::from_str(&input)
                .map_err(|e| format!("{} response is not JSON: {e}", provider.name()))?;
            let adapted = adapt(provider, &response);
            for warning in &adapted.warnings {
                eprintln!("citemark: warning: {}: {}", warning.path, warning.message);
            }
            (adapted.markdown.clone(), Some(adapted))
        }
        None => (input, None),
    };
    let mut options = adapted
        .as_ref()
        .map_or_else(citemark::Options::default, Adapted::options)
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
        });
    if let Some(path) = &args.sources {
        let json = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read --sources {}: {e}", path.display()))?;
        options = options
            .with_sources_json(&json)
            .map_err(|e| format!("--sources {}: {e}", path.display()))?;
    }
    let warnings = adapted.map(|a| a.warnings).unwrap_or_default();
    Ok((markdown, options, warnings))
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

fn stream(args: StreamArgs) -> Result<String, String> {
    let (markdown, options, _) = prepare(&args.input)?;
    let mut stream = citemark::Stream::new(options);
    let mut lines = String::new();
    let size = usize::try_from(args.chunk_size).unwrap_or(usize::MAX);
    let patches = markdown
        .as_bytes()
        .chunks(size)
        .map(|chunk| stream.push_bytes(chunk))
        .collect::<Vec<_>>()
        .into_iter()
        .chain(std::iter::once_with(|| stream.finish()));
    for patch in patches {
        let line = serde_json::to_string(&patch).map_err(|e| format!("cannot write JSON: {e}"))?;
        lines.push_str(&line);
        lines.push('\n');
    }
    Ok(lines)
}

/// Reads the input, decoding invalid UTF-8 lossily (never rejected).
fn read_input(file: Option<&std::path::Path>) -> Result<String, String> {
    let mut bytes = Vec::new();
    match file {
        None => std::io::stdin().read_to_end(&mut bytes).map(|_| ()),
        Some(p) if p.as_os_str() == "-" => std::io::stdin().read_to_end(&mut bytes).map(|_| ()),
        Some(p) => std::fs::read(p).map(|b| bytes = b),
    }
    .map_err(|e| match file {
        Some(p) => format!("cannot read {}: {e}", p.display()),
        None => format!("cannot read stdin: {e}"),
    })?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
