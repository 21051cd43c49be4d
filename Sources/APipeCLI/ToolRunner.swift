import APipeStream
import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// The `main` every tool shares: parse, run, and turn errors into one line and an exit status.
///
/// A `ToolFailure` prints `tool: description` and exits with its status; a closed output
/// (EPIPE) exits 141 without a word, like any filter killed by SIGPIPE; argument errors are left
/// to swift-argument-parser (usage text, exit 64).
public enum ToolRunner {
    public static func main<Command: ParsableCommand>(_: Command.Type) -> Never {
        var command: Command = parse()
        do {
            try command.run()
        } catch {
            fail(error, Command.self)
        }
        exit(0)
    }

    public static func main<Command: AsyncParsableCommand>(_: Command.Type) async -> Never {
        var command: Command = parse()
        do {
            try await command.run()
        } catch {
            fail(error, Command.self)
        }
        exit(0)
    }

    /// Parses the command line; usage errors, --help and --version end the process here.
    private static func parse<Command: ParsableCommand>() -> Command {
        SystemIO.ignoreBrokenPipeSignal()
        do {
            guard let command = try Command.parseAsRoot() as? Command else { Command.exit() }
            return command
        } catch {
            Command.exit(withError: error)
        }
    }

    private static func fail<Command: ParsableCommand>(_ error: any Error, _: Command.Type) -> Never {
        if let failure = error as? any ToolFailure {
            if failure.exitStatus != .brokenPipe { Diagnostics.error(failure.description) }
            exit(failure.exitStatus.rawValue)
        }
        if error is ValidationError || error is CleanExit || error is ExitCode {
            Command.exit(withError: error)
        }
        Diagnostics.error("\(error)")
        exit(ExitStatus.failure.rawValue)
    }
}
