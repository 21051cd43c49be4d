@testable import APipeWhisper
import Foundation
import Testing

/// The float16 tiny.en rewritten as float32 and as int8 (+ `_scale`) CTranslate2 files, loaded
/// and run: each must transcribe like the original.
@Suite(.enabled(if: Fixtures.modelPresent, Comment(rawValue: Fixtures.skipMessage)))
struct ModelVariantsTests {
    /// One variable of a model.bin as read back from the file.
    struct Variable {
        let name: String
        let shape: [Int]
        let dtype: UInt8
        let data: Data
    }

    static func readModel(_ data: Data) -> (spec: String, revision: UInt32, variables: [Variable], aliases: [(String, String)]) {
        var offset = 0
        func u8() -> UInt8 { defer { offset += 1 }; return data[offset] }
        func u16() -> Int { Int(u8()) | Int(u8()) << 8 }
        func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
        func string() -> String {
            let n = u16()
            defer { offset += n }
            return String(decoding: data[offset..<(offset + n - 1)], as: UTF8.self)
        }
        _ = u32()
        let spec = string()
        let revision = u32()
        var variables: [Variable] = []
        for _ in 0..<u32() {
            let name = string()
            let rank = Int(u8())
            let shape = (0..<rank).map { _ in Int(u32()) }
            let dtype = u8()
            let size = Int(u32())
            variables.append(Variable(name: name, shape: shape, dtype: dtype, data: data[offset..<(offset + size)]))
            offset += size
        }
        let aliases = (0..<u32()).map { _ in (string(), string()) }
        return (spec, revision, variables, aliases)
    }

    static func writeModel(spec: String, revision: UInt32, variables: [Variable], aliases: [(String, String)]) -> Data {
        var out = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) } }
        func string(_ s: String) {
            let bytes = Array(s.utf8) + [0]
            withUnsafeBytes(of: UInt16(bytes.count).littleEndian) { out.append(contentsOf: $0) }
            out.append(contentsOf: bytes)
        }
        u32(6)
        string(spec)
        u32(revision)
        u32(UInt32(variables.count))
        for v in variables.sorted(by: { $0.name < $1.name }) {
            string(v.name)
            out.append(UInt8(v.shape.count))
            for d in v.shape { u32(UInt32(d)) }
            out.append(v.dtype)
            u32(UInt32(v.data.count))
            out.append(v.data)
        }
        u32(UInt32(aliases.count))
        for (a, t) in aliases { string(a); string(t) }
        return out
    }

    static func floats(_ v: Variable) -> [Float] {
        v.data.withUnsafeBytes { raw in
            (0..<(v.data.count / 2)).map { Float(Float16(bitPattern: raw.loadUnaligned(fromByteOffset: 2 * $0, as: UInt16.self))) }
        }
    }

    /// Writes the model with every float16 variable converted by `convert` into a new directory.
    static func variant(_ convert: (Variable, [Float]) -> [Variable]) throws -> URL {
        let source = Fixtures.modelDirectory
        let original = readModel(try Data(contentsOf: URL(fileURLWithPath: source + "/model.bin")))
        var variables: [Variable] = []
        for v in original.variables {
            variables += v.dtype == 4 ? convert(v, floats(v)) : [v]
        }
        let dir = try Fixtures.temporaryDirectory()
        try writeModel(spec: original.spec, revision: original.revision, variables: variables, aliases: original.aliases)
            .write(to: dir.appendingPathComponent("model.bin"))
        for file in ["vocabulary.txt", "config.json", "tokenizer.json"] {
            try FileManager.default.copyItem(atPath: source + "/" + file, toPath: dir.appendingPathComponent(file).path)
        }
        return dir
    }

    static func float32(_ v: Variable, _ values: [Float]) -> [Variable] {
        [Variable(name: v.name, shape: v.shape, dtype: 0, data: values.withUnsafeBytes { Data($0) })]
    }

    /// CTranslate2's int8 scheme: per output row, scale = 127 / max|row|, q = round(w * scale).
    static func int8(_ v: Variable, _ values: [Float]) -> [Variable] {
        guard v.name.hasSuffix("/weight"), v.shape.count >= 2 else { return float32(v, values) }
        let rows = v.shape[0], cols = values.count / rows
        var quantised = [Int8](repeating: 0, count: values.count)
        var scales = [Float](repeating: 1, count: rows)
        for r in 0..<rows {
            let peak = values[(r * cols)..<((r + 1) * cols)].map(abs).max() ?? 0
            scales[r] = peak > 0 ? 127 / peak : 1
            for c in 0..<cols { quantised[r * cols + c] = Int8((values[r * cols + c] * scales[r]).rounded()) }
        }
        return [
            Variable(name: v.name, shape: [rows, cols], dtype: 1, data: quantised.withUnsafeBytes { Data($0) }),
            Variable(name: v.name + "_scale", shape: [rows], dtype: 0, data: scales.withUnsafeBytes { Data($0) }),
        ]
    }

    @Test(arguments: ["float32", "int8"])
    func variantTranscribesLikeFloat16(kind: String) throws {
        let original = try #require(Fixtures.model)
        let dir = try Self.variant(kind == "int8" ? Self.int8 : Self.float32)
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = try WhisperModel.load(directory: dir.path)
        #expect(model.dimensions == original.dimensions)
        let samples = try Fixtures.speech("Please call Stella and ask her to bring these things with her from the store.")
        let options = WhisperOptions(temperatures: [0])
        let expected = try original.transcribe(samples, options: options)
        let result = try model.transcribe(samples, options: options)
        if kind == "float32" {
            #expect(result.tokens == expected.tokens)
        } else {
            let wer = Fixtures.wordErrorRate(reference: expected.text, hypothesis: result.text)
            #expect(wer <= 20, "int8: \(result.text) / float16: \(expected.text)")
        }
    }
}
