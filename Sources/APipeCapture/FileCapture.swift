import APipeAudio
import APipeDSP
import APipeResample
import APipeStream

/// Turns audio files (or standard input) into sessions: one per file, or one for all with
/// `concat`. With a preset, audio is converted to the preset's rate, mono, 16-bit.
public struct FileCapture {
    public struct Input {
        public let reader: SoundFileReader
        public let name: String

        public init(reader: SoundFileReader, name: String) {
            self.reader = reader
            self.name = name
        }
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
                writer: writer, format: try format(for: first.reader), title: title ?? Self.title(first.name), preset: preset,
                source: inputs.map(\.name).joined(separator: " + "), device: nil, notes: notes)
            for input in inputs {
                guard try copy(input, to: recorder) else { return try stop(recorder) }
            }
            try recorder.end(interrupted: false, reason: nil)
            return true
        }
        for input in inputs {
            let recorder = try SessionRecorder(
                writer: writer, format: try format(for: input.reader), title: title ?? Self.title(input.name), preset: preset,
                source: input.name, device: nil, notes: notes)
            guard try copy(input, to: recorder) else { return try stop(recorder) }
            try recorder.end(interrupted: false, reason: nil)
        }
        return true
    }

    private func stop(_ recorder: SessionRecorder) throws -> Bool {
        try recorder.end(interrupted: true, reason: "signal")
        return false
    }

    /// The session format for a file: the preset's, or the file's own rate and channels in s16
    /// when 16 bits hold its samples exactly, f32 otherwise.
    func format(for reader: SoundFileReader) throws -> AudioFormat {
        if let preset { return try AudioFormat(encoding: .s16le, rate: preset.rate, channels: 1) }
        return try AudioFormat(encoding: reader.fitsSixteenBits ? .s16le : .f32le, rate: reader.rate, channels: reader.channels)
    }

    private func checkConcatenable(_ inputs: [Input]) throws {
        guard preset == nil, let first = inputs.first else { return }
        let reference = try format(for: first.reader)
        for input in inputs.dropFirst() where try format(for: input.reader) != reference {
            throw CaptureError.concatMismatch(first: "\(first.name): \(reference)", other: "\(input.name): \(try format(for: input.reader))")
        }
    }

    /// Copies one input into the session; false when a stop signal arrived.
    private func copy(_ input: Input, to recorder: SessionRecorder) throws -> Bool {
        let reader = input.reader
        let target = recorder.format
        let mixer = ChannelMixer(inputChannels: reader.channels, outputChannels: target.channels)
        let converter = reader.rate == target.rate
            ? nil : try RateConverterFactory.make(inputRate: reader.rate, outputRate: target.rate, channels: target.channels, quality: quality)
        let limit = duration.map { Int(($0 * Double(reader.rate)).rounded()) } ?? Int.max
        var read = 0
        var samples: [Float] = []
        var mixed: [Float] = []
        var converted: [Float] = []
        let blockFrames = 4096
        while read < limit {
            if StopSignal.requested { return false }
            let got = try reader.read(frames: min(blockFrames, limit - read), into: &samples)
            if got == 0 { break }
            read += got
            var block = samples.prefix(got * reader.channels)
            if !mixer.isIdentity {
                block.withUnsafeBufferPointer { mixer.mix($0, into: &mixed) }
                block = mixed[...]
            }
            if let converter {
                converted.removeAll(keepingCapacity: true)
                try block.withUnsafeBufferPointer { try converter.convert($0, endOfInput: false, into: &converted) }
                try converted.withUnsafeBufferPointer { try recorder.append($0) }
            } else {
                try block.withUnsafeBufferPointer { try recorder.append($0) }
            }
        }
        if let converter {
            converted.removeAll(keepingCapacity: true)
            try converter.convert(UnsafeBufferPointer(start: nil, count: 0), endOfInput: true, into: &converted)
            try converted.withUnsafeBufferPointer { try recorder.append($0) }
        }
        return true
    }

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
