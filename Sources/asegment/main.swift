// asegment: finds speech in an apipe stream and marks segments (see man/asegment.1).
import APipeCLI
import APipeSegment
import APipeStream
import ArgumentParser

struct ASegment: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "asegment",
        abstract: "Mark speech segments in an apipe stream (VAD), or cut it at fixed lengths.",
        discussion: """
            Reads a stream on standard input and writes it on standard output with segment.start and \
            segment.end events around each segment's audio. Every packet passes on in order.
            """,
        version: APipeVersion.current)

    @Option(help: "Speech probability threshold, 0.01-0.99 (default from --aggressiveness: 0.35/0.5/0.65/0.8).")
    var threshold: Double?

    @Option(name: .customLong("min-speech"), help: "Shortest speech that opens a segment, seconds.")
    var minSpeech = 0.25

    @Option(name: .customLong("min-silence"), help: "Silence that closes a segment, seconds.")
    var minSilence = 0.5

    @Option(help: "Audio kept before and after the speech of a segment, seconds.")
    var pad = 0.2

    @Option(name: .customLong("max-length"), help: "Longest segment, seconds; longer speech is cut at a quiet point.")
    var maxLength = 30.0

    @Option(help: ArgumentHelp("Cut every SECONDS without a VAD.", valueName: "SECONDS"))
    var fixed: Double?

    @Option(help: "0 keeps the most audio, 3 drops the most non-speech.")
    var aggressiveness = 1

    @Flag(name: .customLong("drop-silence"), help: "Pass on only the audio inside segments (positions stay true).")
    var dropSilence = false

    @Option(help: ArgumentHelp("Also write the segments as an Audacity label file.", valueName: "FILE"))
    var labels: String?

    var options: SegmenterOptions {
        SegmenterOptions(
            threshold: threshold, minSpeech: minSpeech, minSilence: minSilence, pad: pad, maxLength: maxLength,
            fixed: fixed, aggressiveness: aggressiveness)
    }

    func validate() throws {
        do {
            try options.validate()
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let labelWriter = try labels.map { path throws in try LabelWriter(path: path) }
        var stage = try SegmentStage(options: options, dropSilence: dropSilence, labels: labelWriter)
        try StageRunner.run(&stage, name: "asegment")
    }
}

ToolRunner.main(ASegment.self)
