import APipeCLI
import APipeResample
import APipeStream
import ArgumentParser

struct AResample: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aresample",
        abstract: "Convert the sample rate, channel count and sample encoding of an apipe stream.",
        discussion: """
            Positions and event times stay exact across the change. Channels: to mono is the mean \
            of all channels; from mono copies to every channel. Float to s16 rounds and clips. \
            See aresample(1).
            """,
        version: APipeVersion.current)

    @Option(name: [.customShort("r"), .long], help: ArgumentHelp("Output sample rate in Hz (default: unchanged).", valueName: "RATE"))
    var rate: Int?

    @Option(name: [.customShort("c"), .long], help: ArgumentHelp("Output channel count, 1 to 8 (default: unchanged).", valueName: "CHANNELS"))
    var channels: Int?

    @Option(help: ArgumentHelp("Output sample encoding: s16 or f32 (default: unchanged).", valueName: "FORMAT"))
    var format: String?

    @Option(help: ArgumentHelp("Resampling quality: low, medium, high or best.", valueName: "QUALITY"))
    var quality: String = "high"

    func validate() throws {
        if let rate, !(1...AudioFormat.maxRate).contains(rate) {
            throw ValidationError("--rate \(rate) is out of range (1 to \(AudioFormat.maxRate) Hz)")
        }
        if let channels, !(1...AudioFormat.maxChannels).contains(channels) {
            throw ValidationError("--channels \(channels) is out of range (1 to \(AudioFormat.maxChannels))")
        }
        if let format, SampleEncoding(name: format) == nil { throw ValidationError("unknown sample format '\(format)' (use s16 or f32)") }
        if ResampleQuality(rawValue: quality) == nil { throw ValidationError("unknown quality '\(quality)' (use low, medium, high or best)") }
    }

    func run() throws {
        let options = ResampleOptions(
            rate: rate, channels: channels, encoding: format.flatMap(SampleEncoding.init(name:)),
            quality: ResampleQuality(rawValue: quality) ?? .high)
        var stage = ResampleStage(options: options)
        try StageRunner.run(&stage, name: "aresample")
    }
}

ToolRunner.main(AResample.self)
