@testable import APipeWhisper
import Testing

@Suite struct CompressionRatioTests {
    @Test func compressionRatioFlagsRepetition() {
        let normal = CompressionRatio.of("The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background.")
        let looping = CompressionRatio.of(String(repeating: "I'm going to go to the store. ", count: 12))
        // zlib gives 1.10 and 9.23 for these.
        #expect(normal > 0.9 && normal < 1.3, "\(normal)")
        #expect(looping > 2.4, "\(looping)")
    }
}
