import Foundation
import Testing
@testable import APipeStream

/// A writer never writes what its own reader refuses.
struct StreamWriterRefusalTests {
    private func confidence(_ value: Double?) -> Transcription {
        Transcription(
            session: "s", index: 0, start: 0, end: 1, text: "t", language: nil, confidence: value, method: "m",
            provider: "p", model: nil, processingTime: 0, phrases: nil, retries: 0)
    }

    /// Everything after the stream header.
    private func written(_ writer: StreamWriter) throws -> [UInt8] {
        try writer.flush()
        return Array(writer.collected.dropFirst(StreamHeader.bytes.count))
    }

    @Test func aNonFiniteNumberIsAnErrorNotAnEmptyEvent() throws {
        let writer = StreamWriter()
        #expect(throws: EventError.self) { try writer.write(event: confidence(.nan)) }
        #expect(throws: EventError.self) { try writer.write(Event(confidence(.infinity))) }
        #expect(try written(writer).isEmpty)
        #expect(throws: EventError.unencodable(type: "transcription", detail: "field 'confidence' holds nan, which JSON cannot carry")) {
            _ = try Event(encoding: confidence(.nan))
        }
    }

    @Test func anEventOverTheLimitIsRefusedAndOneAtTheLimitRoundTrips() throws {
        func event(bytes: Int) throws -> Event {
            let head = #"{"type":"note","text":""#
            let filler = String(repeating: "a", count: bytes - head.utf8.count - 2)
            return try Event(json: Array((head + filler + #""}"#).utf8))
        }
        let writer = StreamWriter()
        let over = try event(bytes: PacketLimits.maxEventPayload + 1)
        #expect(throws: EventError.tooLarge(type: "note", bytes: PacketLimits.maxEventPayload + 1)) { try writer.write(over) }
        #expect(try written(writer).isEmpty)
        let atLimit = try event(bytes: PacketLimits.maxEventPayload)
        try writer.write(atLimit)
        try writer.finish()
        let reader = StreamReader(bytes: writer.collected)
        #expect(try reader.next() == .event(atLimit))
    }
}
