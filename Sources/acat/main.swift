import APipeCLI
import APipeCat
import APipeStream
import ArgumentParser

struct ACat: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acat",
        abstract: "Get out of an apipe stream: WAV, raw PCM, JSON lines, a summary, or files.",
        discussion: """
            With no option, prints a summary of the stream's sessions, segments and transcripts. \
            An input that breaks off is still written out as far as it goes, with exit status 3. \
            See acat(1).
            """,
        version: APipeVersion.current)

    @Flag(help: "Write the audio as WAV to standard output (unknown length on a pipe).")
    var wav = false

    @Flag(help: "Write the audio as raw interleaved samples in the stream's encoding.")
    var raw = false

    @Flag(help: "Write every event as a JSON line; audio is summarised per contiguous run.")
    var events = false

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write each session and each segment as a WAV file into DIR.", valueName: "DIR"))
    var output: String?

    func validate() throws {
        if [wav, raw, events, output != nil].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --wav, --raw, --events and -o")
        }
    }

    func run() throws {
        let input = StreamReader(fd: 0)
        FilterSignals.install()
        if wav || raw {
            guard !SystemIO.isTerminal(1) else { throw StreamError.terminalOutput }
            var sink = AudioSink(fd: 1, container: wav ? .wav : .raw)
            try CatRunner.run(&sink, input: input)
        } else if events {
            let out = BufferedOutput()
            var sink = EventListSink(emit: out.line)
            do {
                try CatRunner.run(&sink, input: input)
            } catch let error as StreamError where error.exitStatus == .interrupted || error.exitStatus == .dataError {
                // What arrived is written before the input's error decides the exit status.
                try out.flush()
                throw error
            }
            try out.flush()
        } else if let output {
            try SplitSink.makeDirectory(output)
            var sink = SplitSink(directory: output)
            try CatRunner.run(&sink, input: input)
        } else {
            var sink = SummarySink(out: BufferedOutput())
            try CatRunner.run(&sink, input: input)
        }
    }
}

ToolRunner.main(ACat.self)
