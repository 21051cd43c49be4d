import APipeAudio
import APipeStream

#if canImport(Glibc)
import Glibc
#endif

/// `acat -o DIR`: each session to `DIR/session-ID.wav` and each segment to
/// `DIR/session-ID-segment-NNN.wav` (16-bit WAV; ID is the first 8 characters of the UUID).
/// Files appear under their final names only when complete.
///
/// A WAV file holds one format, so a format change inside a session closes the open files and
/// goes on in new ones named `...-partN.wav` (N from 2), in the new format: no audio is lost and
/// no file mixes two formats.
public struct SplitSink: CatSink {
    private let directory: String
    private var session: String?
    private var part = 1
    private var sessionFile: SoundFileWriter?
    private var segmentFile: SoundFileWriter?
    /// The open segment: its number and start time (seconds), which survive a format change.
    private var segment: (number: Int, start: Double)?
    private var segmentStartFrame = 0
    private var format: AudioFormat?
    private var samples: [Float] = []
    public private(set) var written: [String] = []

    public init(directory: String) {
        self.directory = directory
    }

    /// Creates `directory` unless it is one already (a symlink to a directory counts).
    public static func makeDirectory(_ directory: String) throws {
        guard mkdir(directory, 0o755) != 0 else { return }
        let reason = errno
        var info = stat()
        guard reason == EEXIST, stat(directory, &info) == 0 else {
            throw CatError.cannotCreate(path: directory, reason: String(cString: strerror(reason)))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw CatError.cannotCreate(path: directory, reason: "it exists and is not a directory")
        }
    }

    public mutating func consume(_ packet: Packet) throws {
        switch packet {
        case .format(let newFormat):
            try change(to: newFormat)
        case .audio(let block):
            try change(to: block.format)
            samples.removeAll(keepingCapacity: true)
            block.appendSamples(to: &samples)
            try samples.withUnsafeBufferPointer { all in
                try sessionFile?.write(all)
                guard let segmentFile else { return }
                let skip = max(0, min(block.frames, segmentStartFrame - block.position)) * block.format.channels
                try segmentFile.write(UnsafeBufferPointer(rebasing: all[skip...]))
            }
        case .event(let event):
            if let start = try event.decode(SessionStart.self) {
                try closeFiles()
                let id = String(start.session.prefix(8))
                session = id
                part = 1
                sessionFile = try open(sessionName(id))
            } else if try event.decode(SessionEnd.self) != nil {
                try closeFiles()
                session = nil
            } else if let start = try event.decode(SegmentStart.self) {
                try closeSegment()
                segment = (start.index, start.start)
                try openSegment()
            } else if try event.decode(SegmentEnd.self) != nil {
                try closeSegment()
            }
        }
    }

    public mutating func close(interrupted: Bool) throws {
        try closeFiles()
    }

    /// Takes a new format; inside a session, the open files end and new parts begin.
    private mutating func change(to newFormat: AudioFormat) throws {
        guard newFormat != format else { return }
        let reopen = format != nil && session != nil
        format = newFormat
        guard reopen, let session else { return }
        part += 1
        let hadSession = sessionFile != nil, openSegment = segment
        try closeFiles()
        if hadSession { sessionFile = try open(sessionName(session)) }
        if openSegment != nil {
            segment = openSegment
            try self.openSegment()
        }
    }

    private func sessionName(_ id: String) -> String {
        "session-\(id)\(partSuffix).wav"
    }

    private var partSuffix: String { part > 1 ? "-part\(part)" : "" }

    private mutating func openSegment() throws {
        guard let format, let session, let segment else { return }
        segmentStartFrame = Int((segment.start * Double(format.rate)).rounded())
        let number = segment.number < 1000 ? String(String(segment.number + 1000).dropFirst()) : String(segment.number)
        segmentFile = try open("session-\(session)-segment-\(number)\(partSuffix).wav")
    }

    private func open(_ name: String) throws -> SoundFileWriter? {
        guard let format else { return nil }
        return try SoundFileWriter(path: directory + "/" + name, rate: format.rate, channels: format.channels)
    }

    private mutating func closeSegment() throws {
        segment = nil
        if let file = segmentFile {
            try file.close()
            written.append(file.path)
        }
        segmentFile = nil
    }

    private mutating func closeFiles() throws {
        try closeSegment()
        if let file = sessionFile {
            try file.close()
            written.append(file.path)
        }
        sessionFile = nil
    }
}
