import Foundation
import Testing

/// Segments belong to their session: closed before its session.end, numbered from 0 in each.
@Suite struct SessionSegmentTests {
    /// The segment and session events of `acat --events`, as "type index" (index for segments).
    func outline(_ lines: [String]) -> [String] {
        lines.compactMap { line -> String? in
            guard let data = line.data(using: .utf8),
                let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                let type = object["type"] as? String, type.hasPrefix("session.") || type.hasPrefix("segment.")
            else { return nil }
            return (object["index"] as? Int).map { "\(type) \($0)" } ?? type
        }
    }

    @Test func fixedSegmentsOfEachFileCloseBeforeItsSessionEnds() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 1.5 sine 300; sox -n -r 16000 -b 16 b.wav synth 1.5 sine 500")
        let result = try shell.run("acapture -i a.wav -i b.wav | asegment --fixed 1 | acat --events")
        #expect(result.statuses == [0, 0, 0], "\(result.stderr)")
        let session = ["session.start", "segment.start 0", "segment.end 0", "segment.start 1", "segment.end 1", "session.end"]
        #expect(outline(result.lines) == session + session)
    }

    @Test func speechSegmentsOfEachFileCloseBeforeItsSessionEnds() throws {
        let shell = try Shell()
        _ = try shell.speech("Good morning everyone, and thank you for coming.", name: "a.wav")
        _ = try shell.speech("Let us start with the budget review.", name: "b.wav")
        let result = try shell.run("acapture -i a.wav -i b.wav --preset low | asegment | acat --events")
        #expect(result.statuses == [0, 0, 0], "\(result.stderr)")
        let events = outline(result.lines)
        let ends = events.indices.filter { events[$0] == "session.end" }
        try #require(ends.count == 2)
        let first = Array(events[...ends[0]]), second = Array(events[(ends[0] + 1)...])
        for session in [first, second] {
            #expect(session.first == "session.start")
            #expect(session.last == "session.end")
            #expect(session.contains("segment.start 0"), "\(session)")
            #expect(session.filter { $0.hasPrefix("segment.start") }.count == session.filter { $0.hasPrefix("segment.end") }.count)
        }
    }

    @Test func aFolderThroughFixedSegmentsIsTranscribedSessionBySession() throws {
        let shell = try Shell()
        try shell.run("sox -n -r 16000 -b 16 a.wav synth 1.5 sine 300; sox -n -r 16000 -b 16 b.wav synth 1.5 sine 500")
        let result = try shell.run(
            "acapture -i a.wav -i b.wav | asegment --fixed 1 | atranscribe --engine command --exec 'cat > /dev/null; echo words' | acat --events")
        #expect(result.statuses == [0, 0, 0, 0], "\(result.stderr)")
        #expect(!result.stderr.contains("carried no audio"), "\(result.stderr)")
        #expect(result.lines.filter { $0.contains(#""type":"transcription""#) }.count == 4)
    }
}
