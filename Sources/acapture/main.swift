import APipeAudio
import APipeCLI
import APipeCapture
import APipeResample
import APipeStream
import ArgumentParser

struct ACapture: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acapture",
        abstract: "Start sessions from audio files, standard input or an ALSA device, as an apipe stream.",
        discussion: """
            With -i (one or more files up to the next option) or file arguments, each file becomes a \
            session, in order (--concat makes one session of all). With -i -, \
            standard input is read as WAV (or raw with --raw-format). Without -i, records from the \
            ALSA device given by -D until SIGINT/SIGTERM or --duration; a signal ends the session \
            as interrupted and exits 0. See acapture(1).
            """,
        version: APipeVersion.current)

    @Option(
        name: [.customShort("i"), .long], parsing: .upToNextOption,
        help: ArgumentHelp("Read audio from FILE... ('-' for standard input), each a session, in order; repeatable.", valueName: "FILE"))
    var input: [String] = []

    @Argument(help: ArgumentHelp("More input files, as with -i.", valueName: "FILE"))
    var files: [String] = []

    /// Every input, in command-line order of the two forms: -i values first, then bare files.
    var inputs: [String] { input + files }

    @Option(name: [.customShort("D"), .long], help: ArgumentHelp("Record from this ALSA PCM device.", valueName: "DEVICE"))
    var device: String?

    @Option(help: ArgumentHelp("Quality preset: low (16000 Hz), medium (22050 Hz), high (44100 Hz); 16-bit mono.", valueName: "PRESET"))
    var preset: String?

    @Option(help: "Session title (default: the file name, or 'Recording DATE').")
    var title: String?

    @Option(help: "Free-text notes stored with the session.")
    var notes: String?

    @Option(help: ArgumentHelp("Stop after this many seconds.", valueName: "SECONDS"))
    var duration: Double?

    @Flag(help: "Make one session of all input files.")
    var concat = false

    @Option(help: ArgumentHelp("Standard input is raw samples in this format: s16le, s32le, f32le or u8.", valueName: "FORMAT"))
    var rawFormat: String?

    @Option(help: "Sample rate of raw input, in Hz.")
    var rate: Int?

    @Option(help: "Channel count of raw input.")
    var channels: Int?

    func validate() throws {
        if preset != nil, QualityPreset(rawValue: preset ?? "") == nil {
            throw ValidationError("unknown preset '\(preset ?? "")' (use low, medium or high)")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        if device != nil, !inputs.isEmpty { throw ValidationError("use either -i FILE or -D DEVICE, not both") }
        if rawFormat != nil || rate != nil || channels != nil {
            guard inputs == ["-"] else { throw ValidationError("--raw-format, --rate and --channels describe standard input: use them with -i -") }
            guard rawFormat != nil, let rate, let channels else {
                throw ValidationError("raw input needs --raw-format, --rate and --channels together")
            }
            guard (1...AudioFormat.maxRate).contains(rate) else { throw ValidationError("--rate \(rate) is out of range (1 to \(AudioFormat.maxRate) Hz)") }
            guard (1...AudioFormat.maxChannels).contains(channels) else { throw ValidationError("--channels \(channels) is out of range (1 to \(AudioFormat.maxChannels))") }
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-i -) can be read only once") }
    }

    func run() throws {
        let writer = try StreamWriter.standardOutput()
        StopSignal.install()
        let chosenPreset = preset.flatMap(QualityPreset.init(rawValue:))
        if inputs.isEmpty {
            var capture = DeviceCapture(device: device ?? "default", preset: chosenPreset ?? .high)
            capture.title = title
            capture.notes = notes
            capture.duration = duration
            try capture.run(writer: writer)
        } else {
            let sources = try inputs.map { name in
                name == "-"
                    ? FileCapture.Input(reader: try SoundFileReader(fd: 0, name: "stdin", raw: rawLayout), name: "stdin")
                    : FileCapture.Input(path: name)
            }
            var capture = FileCapture()
            capture.preset = chosenPreset
            capture.title = title
            capture.notes = notes
            capture.concat = concat
            capture.duration = duration
            _ = try capture.run(sources, writer: writer)
        }
        try writer.finish()
    }

    private var rawLayout: SoundFileReader.RawLayout? {
        guard let rawFormat, let rate, let channels else { return nil }
        return .init(encoding: rawFormat, rate: rate, channels: channels)
    }
}

ToolRunner.main(ACapture.self)
