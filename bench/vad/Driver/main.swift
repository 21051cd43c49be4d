// apipe-vad-bench: runs APipeDSP's VAD over raw audio and prints one line per frame, then timing.
// usage: apipe-vad-bench --rate HZ [--channels N] [--format s16|f32] [--hop S] [--aggressiveness A]
//                        [--features] [--repeat N] FILE|-
// stdout: "index probability decision" per frame (plus the features with --features);
// stderr: "frames N seconds S frames/s F" for the processing alone (reading excluded).
import APipeDSP
import Foundation

struct Options {
    var rate = 16000.0
    var channels = 1
    var format = "s16"
    var hop = 0.01
    var aggressiveness = 1
    var features = false
    var repeats = 1
    var path = "-"
}

func parse() -> Options {
    var o = Options()
    var args = CommandLine.arguments.dropFirst()
    func value() -> String {
        guard let v = args.popFirst() else { fail("missing value") }
        return v
    }
    while let a = args.popFirst() {
        switch a {
        case "--rate": o.rate = Double(value()) ?? 0
        case "--channels": o.channels = Int(value()) ?? 0
        case "--format": o.format = value()
        case "--hop": o.hop = Double(value()) ?? 0
        case "--aggressiveness": o.aggressiveness = Int(value()) ?? -1
        case "--features": o.features = true
        case "--repeat": o.repeats = max(1, Int(value()) ?? 1)
        default: o.path = a
        }
    }
    return o
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("apipe-vad-bench: \(message)\n".utf8))
    exit(1)
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

func main() {
    let options = parse()
    let data: Data
    if options.path == "-" {
        data = FileHandle.standardInput.readDataToEndOfFile()
    } else {
        guard let d = FileManager.default.contents(atPath: options.path) else { fail("cannot read \(options.path)") }
        data = d
    }
    var samples: [Float]
    switch options.format {
    case "s16":
        samples = data.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { Float($0) / 32768 }
        }
    case "f32":
        samples = data.withUnsafeBytes { raw in Array(raw.bindMemory(to: Float.self)) }
    default:
        fail("unknown format \(options.format)")
    }

    let configuration = VADConfiguration(
        sampleRate: options.rate, channels: options.channels, hop: options.hop,
        aggressiveness: options.aggressiveness)
    var frames: [VADFrame] = []
    var elapsed = 0.0
    for _ in 0..<options.repeats {
        let vad: VAD
        do { vad = try VAD(configuration) } catch { fail(String(describing: error)) }
        frames.removeAll(keepingCapacity: true)
        frames.reserveCapacity(samples.count / max(1, vad.hopSamples * options.channels) + 8)
        let chunk = 1024 * options.channels
        let start = now()
        samples.withUnsafeBufferPointer { all in
            var offset = 0
            while offset < all.count {
                let n = min(chunk, all.count - offset)
                vad.process(UnsafeBufferPointer(rebasing: all[offset..<offset + n]), into: &frames)
                offset += n
            }
            vad.finish(into: &frames)
        }
        elapsed += now() - start
    }

    var out = ""
    out.reserveCapacity(frames.count * 24)
    for f in frames {
        out += "\(f.index) \(f.probability) \(f.isSpeech ? 1 : 0)"
        if options.features {
            let x = f.features
            out += " \(x.meanBandSNR) \(x.totalSNR) \(x.whitenedFlatness) \(x.harmonicity) \(x.levelDB) \(x.relativeLevel)"
        }
        out += "\n"
    }
    FileHandle.standardOutput.write(Data(out.utf8))
    let total = frames.count * options.repeats
    // Speed is counted in 10 ms frames of audio, whatever the hop, to compare with other VADs.
    let tenMs = Double(samples.count / options.channels) / options.rate / 0.01 * Double(options.repeats)
    FileHandle.standardError.write(
        Data("frames \(total) seconds \(elapsed) frames/s \(tenMs / elapsed)\n".utf8))
}

main()
