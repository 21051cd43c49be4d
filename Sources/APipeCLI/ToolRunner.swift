import APipeStream
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The `main` every tool shares: parse, run, and turn errors into one line and an exit status.
///
/// A `ToolFailure` prints `tool: description` and exits with its status; a closed output
/// (EPIPE) exits 141 without a word, like any filter killed by SIGPIPE; everything else (usage
/// errors, --help, --version) is left to swift-argument-parser (usage text, exit 64).
public enum ToolRunner {
    public static func main<Root: ParsableCommand>(_: Root.Type) -> Never {
        var command = parse(Root.self)
        do {
            try command.run()
        } catch {
            fail(error, Root.self)
        }
        exit(0)
    }

    /// For a root whose commands (or some subcommands) are asynchronous.
    public static func main<Root: AsyncParsableCommand>(_: Root.Type) async -> Never {
        var command = parse(Root.self)
        do {
            if var asynchronous = command as? any AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            fail(error, Root.self)
        }
        exit(0)
    }

    /// Parses the command line into the root or one of its subcommands; usage errors, --help
    /// and --version end the process here.
    private static func parse<Root: ParsableCommand>(_: Root.Type) -> any ParsableCommand {
        SystemIO.ignoreBrokenPipeSignal()
        do {
            return try Root.parseAsRoot()
        } catch {
            Root.exit(withError: error)
        }
    }

    private static func fail<Root: ParsableCommand>(_ error: any Error, _: Root.Type) -> Never {
        if let failure = error as? any ToolFailure {
            if failure.exitStatus != .brokenPipe { Diagnostics.error(failure.description) }
            // A filter stopped by a signal ends by that signal, so a shell loop around it stops too.
            if case .stopped(let signal, _)? = error as? StreamError { FilterSignals.exit(by: signal) }
            exit(failure.exitStatus.rawValue)
        }
        // Help, usage and version requests, and errors of other libraries: the parser's own
        // report and exit status.
        Root.exit(withError: error)
    }
}
