import APipeStream

/// Runs a filter stage from standard input to standard output.
public enum StageRunner {
    /// Refuses a terminal on standard output before any work, then pumps the stage.
    /// An interrupted input is reported as a warning here; the error still sets the exit status.
    /// SIGINT and SIGTERM follow `FilterSignals`: finish with the input, or stop now.
    public static func run<S: StreamStage>(_ stage: inout S, name: String) throws {
        let output = try StreamWriter.standardOutput()
        FilterSignals.install()
        let input = StreamReader(fd: 0)
        do {
            try StreamPump.run(&stage, name: name, input: input, output: output)
        } catch StreamError.interrupted(let offset) {
            throw InterruptedInput(offset: offset)
        }
    }
}

/// The input broke off; everything before it went downstream, marked interrupted.
public struct InterruptedInput: ToolFailure {
    public let offset: Int
    public var exitStatus: ExitStatus { .interrupted }
    public var description: String {
        "input ended at byte \(offset) without an end marker (upstream stopped early); passed on what arrived, marked interrupted"
    }
}
