import Foundation

/// What one ingest did, for the one-line summary on standard error.
public struct IngestSummary: Sendable, Equatable, CustomStringConvertible {
    public var newSessions = 0
    public var knownSessions = 0
    public var segments = 0
    public var transcriptions = 0
    public var failures = 0
    public var interruptedSessions = 0
    /// Seconds of session audio written to files.
    public var audioSeconds = 0.0
    /// Events that could not be stored as they came (unknown sessions, malformed fields).
    public var warnings = 0

    public init() {}

    public var description: String {
        var parts = ["indexed \(newSessions) new session\(newSessions == 1 ? "" : "s")"]
        if knownSessions > 0 { parts.append("\(knownSessions) known") }
        parts.append("\(segments) segment\(segments == 1 ? "" : "s")")
        parts.append("\(transcriptions) transcription\(transcriptions == 1 ? "" : "s")")
        if failures > 0 { parts.append("\(failures) failed or pending") }
        parts.append(String(format: "%.1f s of audio", audioSeconds))
        if interruptedSessions > 0 { parts.append("\(interruptedSessions) interrupted") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return parts.joined(separator: ", ")
    }
}
