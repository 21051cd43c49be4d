// apipe-whisper-bench: transcribes 16 kHz WAV files with APipeWhisper and prints one JSON line
// per file: {"file", "text", "language", "seconds", "audio_seconds"}; the last line carries load time and peak RSS.
// Usage: apipe-whisper-bench MODEL_DIR [--threads N] [--language CODE] [--shorten] [--no-timestamps] [--greedy-only] FILE.wav...
import APipeWhisper
import Foundation

/// Reads a mono or multi-channel 16-bit PCM or 32-bit float WAV as mono floats.
func readWAV(_ path: String) throws -> (samples: [Float], rate: Int) {
    struct BadWAV: Error, CustomStringConvertible { let description: String }
    guard let data = FileManager.default.contents(atPath: path), data.count >= 12 else { throw BadWAV(description: "\(path): unreadable") }
    let bytes = [UInt8](data)
    func u16(_ o: Int) -> Int { Int(bytes[o]) | Int(bytes[o + 1]) << 8 }
    func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
    guard String(decoding: bytes[0..<4], as: UTF8.self) == "RIFF", String(decoding: bytes[8..<12], as: UTF8.self) == "WAVE" else {
        throw BadWAV(description: "\(path): not a WAV file")
    }
    var offset = 12, format = 0, channels = 1, rate = 0, bits = 0
    while offset + 8 <= bytes.count {
        let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
        var size = u32(offset + 4)
        let body = offset + 8
        if id == "fmt " {
            format = u16(body); channels = u16(body + 2); rate = u32(body + 4); bits = u16(body + 14)
            if format == 0xFFFE { format = u16(body + 24) }
        } else if id == "data" {
            if size > bytes.count - body { size = bytes.count - body }
            let frameBytes = channels * bits / 8
            guard frameBytes > 0 else { throw BadWAV(description: "\(path): data before fmt") }
            let frames = size / frameBytes
            var out = [Float](repeating: 0, count: frames)
            for f in 0..<frames {
                var sum: Float = 0
                for c in 0..<channels {
                    let o = body + f * frameBytes + c * bits / 8
                    if format == 1 && bits == 16 {
                        sum += Float(Int16(bitPattern: UInt16(u16(o)))) / 32768
                    } else if format == 3 && bits == 32 {
                        sum += Float(bitPattern: UInt32(u32(o)))
                    } else {
                        throw BadWAV(description: "\(path): unsupported WAV format \(format)/\(bits) bit")
                    }
                }
                out[f] = sum / Float(channels)
            }
            return (out, rate)
        }
        offset = body + size + (size & 1)
    }
    throw BadWAV(description: "\(path): no data chunk")
}

func json(_ object: [String: Any]) -> String {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    return String(decoding: data, as: UTF8.self)
}

func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard !arguments.isEmpty else {
    FileHandle.standardError.write(Data("usage: apipe-whisper-bench MODEL_DIR [--threads N] [--language CODE] [--shorten] [--no-timestamps] [--greedy-only] FILE.wav...\n".utf8))
    exit(2)
}
let modelDirectory = arguments.removeFirst()
var options = WhisperOptions()
var files: [String] = []
while !arguments.isEmpty {
    let argument = arguments.removeFirst()
    switch argument {
    case "--threads": options.threads = Int(arguments.removeFirst())
    case "--language": options.language = arguments.removeFirst()
    case "--shorten": options.shortenEncoderContext = true
    case "--no-timestamps": options.timestamps = false
    case "--greedy-only": options.temperatures = [0]
    default: files.append(argument)
    }
}
do {
    let loadStart = Date()
    let model = try WhisperModel.load(directory: modelDirectory)
    let loadSeconds = Date().timeIntervalSince(loadStart)
    var total = 0.0, audio = 0.0
    for file in files {
        let (samples, rate) = try readWAV(file)
        guard rate == 16_000 else { throw WhisperError.invalidRequest("\(file): sample rate \(rate), expected 16000") }
        let start = Date()
        let result = try model.transcribe(samples, options: options)
        let seconds = Date().timeIntervalSince(start)
        total += seconds
        audio += result.duration
        print(json(["file": file, "text": result.text, "language": result.language, "seconds": seconds, "audio_seconds": result.duration,
                    "confidence": result.confidence, "tokens": result.tokens]))
    }
    print(json(["summary": true, "load_seconds": loadSeconds, "seconds": total, "audio_seconds": audio,
                "peak_rss_kib": peakRSSKiB()]))
} catch {
    FileHandle.standardError.write(Data("apipe-whisper-bench: \(error)\n".utf8))
    exit(1)
}
