import APipeStream
import Foundation

/// Writes segments as an Audacity label file: `start<TAB>end<TAB>label` per line, seconds with
/// six decimals; the label is the segment index and why it ended.
///
/// The path is the user's: it is opened and written in place (a symlink is followed, a FIFO or
/// a device is written to), never replaced.
public final class LabelWriter {
    private let file: OutputFile
    public var path: String { file.path }

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws(OutputFileError) {
        file = try OutputFile(path: path)
    }

    /// The label line for `segment`, newline included.
    public static func line(for segment: Segment) -> String {
        func seconds(_ t: Double) -> String { String(format: "%.6f", t) }
        return "\(seconds(segment.start))\t\(seconds(segment.end))\t\(segment.index) \(segment.reason.rawValue)\n"
    }

    /// Writes one segment's line at once, so a reader of a FIFO sees each segment as it closes.
    public func write(_ segment: Segment) throws {
        try file.write(Self.line(for: segment))
    }

    public func close() throws {
        try file.close()
    }
}
