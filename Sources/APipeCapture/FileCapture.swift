import APipeAudio
import APipeDSP
import APipeResample
import APipeStream

/// Turns audio files (or standard input) into sessions: one per file, or one for all with
/// `concat`. With a preset, audio is converted to the preset's rate, mono, 16-bit.
///
/// Files are opened one at a time, when their session starts, so a glob of thousands of files
/// never holds thousands of descriptors. A file whose header claims more audio than it holds is
/// passed on as far as it goes, with a warning on stderr, and its session ends marked
/// interrupted (reason "file ends early: ...").
public struct FileCapture {
    /// One input: a file opened when needed, or a reader opened already (standard input).
    public final class Input {
        public let name: String
        private let opener: () throws -> SoundFileReader
        private let reopenable: Bool
        private var opened: SoundFileReader?

        /// A file by path, opened on first use and closed after its session.
        public init(path: String) {
            name = path
            opener = { try SoundFileReader(path: path) }
            reopenable = true
        }

        /// A reader already open (standard input); it stays open to the end.
        public init(reader: SoundFileReader, name: String) {
            self.name = name
            opener = { reader }
            reopenable = false
            opened = reader
        }

        func reader() throws -> SoundFileReader {
            if let opened { return opened }
            let reader = try opener()
            opened = reader
            return reader
        }

        /// Closes a file that can be opened again.
        func close() {
            if reopenable { opened = nil }
        }
    }

    /// How copying one input ended.
    enum Outcome {
        /// The input ended.
        case ended
        /// `duration` was reached first.
        case limited
        /// A stop signal arrived.
        case stopped
    }

    public var preset: QualityPreset?
    public var title: String?
    public var notes: String?
    public var concat = false
    /// Stops each session after this many seconds.
    public var duration: Double?
    public var quality: ResampleQuality = .high

    public init() {}

    /// Writes the sessions of `inputs` to `writer`, in order. Returns false if a stop signal ended
    /// the capture early (the session in hand is then closed as interrupted).
    public func run(_ inputs: [Input], writer: StreamWriter) throws -> Bool {
        if concat {
            try checkConcatenable(inputs)
            guard let first = inputs.first else { return true }
            let recorder = try SessionRecorder(
                writer: writer, format: try format(for: first.reader()), title: title ?? Self.title(first.name), preset: preset,
                source: inputs.map(\.name).joined(separator: " + "), device: nil, notes: notes)
            var shortfalls: [String] = []
            for input in inputs {
                let outcome = try copy(input, to: recorder)
                guard outcome != .stopped else { return try stop(recorder) }
                if outcome == .ended, let short = try shortfall(of: input) { shortfalls.append(short) }
                input.close()
            }
            try recorder.end(interrupted: !shortfalls.isEmpty, reason: shortfalls.isEmpty ? nil : shortfalls.joined(separator: "; "))
            return true
        }
        for input in inputs {
            let recorder = try SessionRecorder(
                writer: writer, format: try format(for: input.reader()), title: title ?? Self.title(input.name), preset: preset,
                source: input.name, device: nil, notes: notes)
            let outcome = try copy(input, to: recorder)
            guard outcome != .stopped else { return try stop(recorder) }
            let short = outcome == .ended ? try shortfall(of: input) : nil
            input.close()
            try recorder.end(interrupted: short != nil, reason: short)
        }
        return true
    }

    private func stop(_ recorder: SessionRecorder) throws -> Bool {
        try recorder.end(interrupted: true, reason: "signal")
        return false
    }

    /// Warns about a file cut short and returns the reason its session records, if it was.
    private func shortfall(of input: Input) throws -> String? {
        guard let short = try input.reader().shortfall else { return nil }
        let reason = "file ends early: its header claims \(short.claimed) bytes of audio, it holds \(short.present)"
        Diagnostics.warning("'\(input.name)': \(reason); passed on what it holds, session marked interrupted")
        return "\(input.name): \(reason)"
    }

    /// The session format for a file: the preset's, or the file's own rate and channels in s16
    /// when 16 bits hold its samples exactly, f32 otherwise.
    func format(for reader: SoundFileReader) throws -> AudioFormat {
        if let preset { return try AudioFormat(encoding: .s16le, rate: preset.rate, channels: 1) }
        return try AudioFormat(encoding: reader.fitsSixteenBits ? .s16le : .f32le, rate: reader.rate, channels: reader.channels)
    }

    private func checkConcatenable(_ inputs: [Input]) throws {
        guard preset == nil, let first = inputs.first else { return }
        let reference = try format(for: first.reader())
        for input in inputs.dropFirst() {
            let other = try format(for: input.reader())
            input.close()
            guard other == reference else {
                throw CaptureError.concatMismatch(first: "\(first.name): \(reference)", other: "\(input.name): \(other)")
            }
        }
    }

    /// Copies one input into the session.
    private func copy(_ input: Input, to recorder: SessionRecorder) throws -> Outcome {
        let reader = try input.reader()
        let target = recorder.format
        let mixer = ChannelMixer(inputChannels: reader.channels, outputChannels: target.channels)
        let converter = reader.rate == target.rate
            ? nil : try RunResampler(inputRate: reader.rate, outputRate: target.rate, channels: target.channels, quality: quality, engine: .apipe)
        let limit = duration.map { Int(($0 * Double(reader.rate)).rounded()) } ?? Int.max
        if converter == nil, mixer.isIdentity, target.encoding == .s16le {
            return try copySixteenBit(reader, limit: limit, to: recorder)
        }
        var read = 0
        var samples: [Float] = []
        var mixed: [Float] = []
        var converted: [Float] = []
        while read < limit {
            if StopSignal.requested { return .stopped }
            let got = try reader.read(frames: min(Self.blockFrames, limit - read), into: &samples)
            if got == 0 { break }
            read += got
            var block = samples.prefix(got * reader.channels)
            if !mixer.isIdentity {
                block.withUnsafeBufferPointer { mixer.mix($0, into: &mixed) }
                block = mixed[...]
            }
            if let converter {
                try block.withUnsafeBufferPointer { try converter.process($0, into: &converted) }
                try converted.withUnsafeBufferPointer { try recorder.append($0) }
            } else {
                try block.withUnsafeBufferPointer { try recorder.append($0) }
            }
        }
        if let converter {
            try converter.finish(into: &converted)
            try converted.withUnsafeBufferPointer { try recorder.append($0) }
        }
        return read < limit ? .ended : .limited
    }

    /// Copies 16-bit samples as they are: no float round trip when nothing changes. (Host order
    /// is the wire's little-endian on every platform apipe builds for.)
    private func copySixteenBit(_ reader: SoundFileReader, limit: Int, to recorder: SessionRecorder) throws -> Outcome {
        var read = 0
        var samples: [Int16] = []
        while read < limit {
            if StopSignal.requested { return .stopped }
            let got = try reader.read(frames: min(Self.blockFrames, limit - read), into: &samples)
            if got == 0 { break }
            read += got
            try samples.withUnsafeBytes { try recorder.append(encoded: UnsafeRawBufferPointer(rebasing: $0[0..<got * reader.channels * 2])) }
        }
        return read < limit ? .ended : .limited
    }

    /// Frames per read: large blocks keep per-packet costs small on files.
    static let blockFrames = 16384

    /// A title from a file name: the base name without its extension.
    static func title(_ name: String) -> String {
        let base = name.split(separator: "/").last.map(String.init) ?? name
        guard let dot = base.lastIndex(of: "."), dot != base.startIndex else { return base }
        return String(base[..<dot])
    }
}

/// Capture set-up errors.
public enum CaptureError: Error, ToolFailure {
    case concatMismatch(first: String, other: String)

    public var description: String {
        switch self {
        case .concatMismatch(let first, let other):
            "--concat needs files of one format (\(first); \(other)); add --preset to convert them"
        }
    }

    public var exitStatus: ExitStatus { .usage }
}
