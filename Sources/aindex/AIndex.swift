import APipeCLI
import APipeStore
import APipeStream
import ArgumentParser
import Foundation

@main
struct Main {
    static func main() { ToolRunner.main(AIndex.self) }
}

/// `aindex`: the library at the end of the pipe, and the questions asked of it.
struct AIndex: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aindex",
        abstract: "Keep a stream's sessions, segments, transcriptions and audio in a searchable library.",
        discussion: "With no subcommand, reads a stream on standard input (same as `aindex ingest`).",
        version: APipeVersion.current,
        subcommands: [
            Ingest.self, Sessions.self, Show.self, Search.self, Export.self, Stats.self,
            Prune.self, Check.self, Delete.self, Pending.self, Import.self,
        ],
        defaultSubcommand: Ingest.self)
}

/// Where the library lives; every subcommand takes it.
struct LibraryOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Library directory (default: $APIPE_LIBRARY, else $XDG_DATA_HOME/apipe, else ~/.local/share/apipe).", valueName: "dir"))
    var library: String?

    func open() throws -> Library {
        let opened = try Library(root: Library.defaultRoot(option: library))
        LibraryOptions.keptOpen = opened
        return opened
    }

    /// The library stays open until the process exits: closing the last connection would
    /// checkpoint and fsync the WAL on every query, which the next writer does anyway.
    nonisolated(unsafe) static var keptOpen: Library?
}

/// `--json` for JSON lines.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Write JSON lines instead of a table.")
    var json = false

    var renderer: ReportRenderer {
        ReportRenderer(json: json, zone: .current, ansi: SystemIO.isTerminal(1) && ProcessInfo.processInfo.environment["NO_COLOR"] == nil)
    }
}

/// Writes text to standard output with write(2), quietly stopping on EPIPE.
func emit(_ text: String) throws {
    let bytes = Array(text.utf8)
    try bytes.withUnsafeBytes { try SystemIO.writeAll(1, $0) }
}

struct Ingest: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Read a stream on standard input into the library.")
    @OptionGroup var options: LibraryOptions

    func run() throws {
        if SystemIO.isTerminal(0) {
            throw ValidationError("standard input is a terminal; pipe a stream in (acapture -i FILE | aindex) or see aindex --help")
        }
        let library = try options.open()
        let ingestor = Ingestor(library: library)
        FilterSignals.install()
        defer { Diagnostics.line("aindex: " + ingestor.summary.description) }
        try ingestor.ingest(StreamReader(fd: 0), input: 0)
    }
}

struct Sessions: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List sessions, newest first, grouped by day.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Page to show (1 is the newest).") var page = 1
    @Option(help: "Sessions per page.") var limit = 50
    @Flag(help: "Only sessions whose every segment is transcribed.") var completed = false
    @Flag(help: "Only sessions with segments not transcribed yet.") var pending = false
    @Option(help: "Only sessions created at or after this date or age (2026-11-01, 7d).") var since: String?
    @Option(help: "Only sessions created before this date or age.") var until: String?

    func validate() throws {
        guard page >= 1 else { throw ValidationError("--page must be 1 or more") }
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more") }
        guard !(completed && pending) else { throw ValidationError("--completed and --pending exclude each other") }
    }

    func run() throws {
        let now = Date().timeIntervalSince1970
        var filter = SessionFilter(page: page, limit: limit)
        filter.transcription = completed ? .completed : pending ? .pending : .any
        filter.since = try since.map { try TimeText.instant($0, now: now, zone: .current) }
        filter.until = try until.map { try TimeText.instant($0, now: now, zone: .current) }
        let list = try LibraryQueries(library: options.open()).sessions(filter)
        try emit(output.renderer.sessions(list, page: page))
    }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a session: segments, status, text, transcript.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "Session UUID or an unambiguous prefix of it.") var session: String

    func run() throws {
        let queries = LibraryQueries(library: try options.open())
        try emit(output.renderer.show(try queries.show(try queries.resolve(session))))
    }
}

struct Search: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Search transcriptions, titles and notes.",
        discussion: "Words must all match; \"quoted phrase\", prefix*, AND, OR, NOT and parentheses work as in FTS5.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Hits to show.") var limit = 20
    @Argument(help: "What to look for.") var query: [String]

    func run() throws {
        let parsed = try SearchQuery(query.joined(separator: " "))
        let hits = try Searcher(library: try options.open()).search(parsed, limit: max(1, limit))
        try emit(output.renderer.search(hits))
    }
}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a session's transcript as txt, json, srt, vtt or an Audacity label track.")
    @OptionGroup var options: LibraryOptions
    @Option(help: "txt, json, srt, vtt or audacity.") var format: String = "txt"
    @Argument(help: "Session UUID or an unambiguous prefix of it.") var session: String

    func validate() throws {
        guard TranscriptExporter.Format(rawValue: format) != nil else {
            throw ValidationError("unknown format '\(format)' (txt, json, srt, vtt, audacity)")
        }
    }

    func run() throws {
        let queries = LibraryQueries(library: try options.open())
        let detail = try queries.show(try queries.resolve(session))
        try emit(TranscriptExporter.export(detail, as: TranscriptExporter.Format(rawValue: format) ?? .txt))
    }
}

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Counts, audio time, disk use and segment statuses.")
    @OptionGroup var options: LibraryOptions
    @OptionGroup var output: OutputOptions

    func run() throws {
        try emit(output.renderer.stats(try LibraryQueries(library: try options.open()).stats()))
    }
}
