// libFuzzer entry point: compiled together with Sources/APipeStream by `make fuzz`.
// Any input must end in a packet sequence or a typed StreamError: never a crash, a trap or a
// huge allocation.

@_cdecl("LLVMFuzzerTestOneInput")
public func streamReaderFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let reader = StreamReader(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    do {
        while let packet = try reader.next() {
            if case .audio(let block) = packet {
                var samples: [Float] = []
                block.appendSamples(to: &samples)
            }
        }
    } catch {
        _ = String(describing: error)
    }
    return 0
}
