import APipeCLI
import APipeStore
import APipeStream
import ArgumentParser
import Foundation

/// Prints one line per session a maintenance command touched (or would touch).
private func report(_ sessions: [SessionSummary], verb: String, dryRun: Bool) throws {
    for session in sessions {
        try emit("\(dryRun ? "would \(verb)" : verb) \(session.id) \(PrintableText.escaped(session.title))\n")
    }
    Diagnostics.line("aindex: \(dryRun ? "would \(verb)" : verb) \(sessions.count) session\(sessions.count == 1 ? "" : "s")")
}

struct Prune: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete sessions older than an age, files included.")
    @OptionGroup var options: LibraryOptions
    @Option(name: .customLong("older-than"), help: "Age such as 90d, 12w, 36h.") var olderThan: String
    @Flag(help: "Say what would go; change nothing.") var dryRun = false

    func run() throws {
        let cutoff = Date().timeIntervalSince1970 - (try TimeText.age(olderThan))
        let pruned = try LibraryMaintenance(library: try options.open()).prune(before: cutoff, dryRun: dryRun)
        try report(pruned, verb: "delete", dryRun: dryRun)
    }
}

struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Delete sessions, their segments, transcriptions and files.")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Say what would go; change nothing.") var dryRun = false
    @Argument(help: "Session UUIDs or unambiguous prefixes.") var sessions: [String]

    func run() throws {
        let library = try options.open()
        let queries = LibraryQueries(library: library)
        let ids = try sessions.map { try queries.resolve($0) }
        try report(try LibraryMaintenance(library: library).delete(ids: ids, dryRun: dryRun), verb: "delete", dryRun: dryRun)
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find rows whose files are missing, files no row knows, and wrong counts.",
        discussion: "Exits 1 when problems remain (none with --fix after a repair).")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Repair: forget missing files, remove unknown files, recount, rebuild the search index.") var fix = false
    @Flag(help: "Report only (the default; accepted for symmetry with the other commands).") var dryRun = false

    func run() throws {
        let result = try LibraryChecker(library: try options.open()).check(fix: fix && !dryRun)
        try emit(result.lines.joined(separator: "\n") + "\n")
        if !result.isClean, !result.fixed { throw ExitCode(1) }
    }
}

struct Pending: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write pending and failed segments with their audio as a stream, to transcribe again.",
        discussion: "aindex pending | atranscribe | aindex")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "List the segments instead of writing a stream.") var dryRun = false
    @Flag(name: .customLong("only-pending"), help: "Leave out segments that failed for good.") var onlyPending = false

    func run() throws {
        let writer = PendingWriter(library: try options.open())
        let items = try writer.items(includeFailed: !onlyPending)
        if dryRun {
            for item in items {
                try emit("\(item.session) \(item.index) \(item.status) \(TimeText.seconds(item.start))-\(TimeText.seconds(item.end))\n")
            }
            Diagnostics.line("aindex: \(items.count) segment\(items.count == 1 ? "" : "s") to retry")
            return
        }
        let count = try writer.write(items, to: try StreamWriter.standardOutput()) { Diagnostics.warning($0) }
        Diagnostics.line("aindex: wrote \(count) segment\(count == 1 ? "" : "s") to retry")
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Index existing audio files or folders as sessions (files stay in place).")
    @OptionGroup var options: LibraryOptions
    @Flag(help: "Say what would be imported; change nothing.") var dryRun = false
    @Argument(help: "Audio files or folders.") var paths: [String]

    func run() throws {
        let outcomes = try AudioImporter(library: try options.open()).importPaths(paths, dryRun: dryRun)
        var imported = 0
        for outcome in outcomes {
            switch outcome {
            case .imported(let path, let session):
                imported += 1
                try emit("\(dryRun ? "would import" : "imported") \(session) \(PrintableText.escaped(path))\n")
            case .known(let path): try emit("known \(PrintableText.escaped(path))\n")
            case .unreadable(let path, let reason): Diagnostics.warning("\(PrintableText.escaped(path)): \(reason)")
            }
        }
        Diagnostics.line("aindex: \(dryRun ? "would import" : "imported") \(imported) of \(outcomes.count) file\(outcomes.count == 1 ? "" : "s")")
    }
}
