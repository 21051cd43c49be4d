import APipeStream
import Foundation

/// Writes segments as an Audacity label file: `start<TAB>end<TAB>label` per line, seconds with
/// six decimals; the label is the segment index and why it ended.
public final class LabelWriter {
    private let handle: FileHandle
    public let path: String

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws(LabelFileError) {
        guard FileManager.default.createFile(atPath: path, contents: nil),
            let handle = FileHandle(forWritingAtPath: path)
        else { throw .cannotCreate(path) }
        self.handle = handle
        self.path = path
    }

    /// The label line for `segment`, newline included.
    public static func line(for segment: Segment) -> String {
        func seconds(_ t: Double) -> String { String(format: "%.6f", t) }
        return "\(seconds(segment.start))\t\(seconds(segment.end))\t\(segment.index) \(segment.reason.rawValue)\n"
    }

    public func write(_ segment: Segment) throws {
        do {
            try handle.write(contentsOf: Data(Self.line(for: segment).utf8))
        } catch {
            throw LabelFileError.cannotWrite(path)
        }
    }

    public func close() throws {
        try? handle.close()
    }
}

/// The label file could not be written.
public enum LabelFileError: Error, Equatable, CustomStringConvertible, ToolFailure {
    public var exitStatus: ExitStatus { .cannotCreate }

    case cannotCreate(String)
    case cannotWrite(String)

    public var description: String {
        switch self {
        case .cannotCreate(let path): "cannot create label file \(path)"
        case .cannotWrite(let path): "cannot write label file \(path)"
        }
    }
}
