import Foundation

/// The variables of a CTranslate2 `model.bin` (binary version 6), converted to float32.
///
/// The file is memory-mapped and read once; float16, bfloat16, int8 and int16 (with their
/// `<name>_scale`) are turned into float32 matrices, so the mapping is released after load.
struct ModelFile {
    /// Spec name written by the converter (`WhisperSpec`).
    let specName: String
    /// Spec revision.
    let revision: Int
    /// Float variables by name (aliases resolved), with their shapes.
    private(set) var tensors: [String: (shape: [Int], matrix: Matrix)] = [:]
    /// Integer scalars by name (`encoder/num_heads`, ...).
    private(set) var scalars: [String: Int] = [:]

    static let supportedVersion = 6

    /// Reads and converts `path`; errors name the file and what is wrong.
    init(path: String) throws {
        let mapping = try MappedFile(path: path)
        defer { mapping.close() }
        var reader = ByteReader(bytes: mapping.bytes, path: path)
        let version = try reader.u32()
        guard version == ModelFile.supportedVersion else {
            throw WhisperError.notAModel(path: path, reason: "binary version \(version), expected \(ModelFile.supportedVersion)")
        }
        specName = try reader.string()
        revision = Int(try reader.u32())
        let count = Int(try reader.u32())
        var raw: [String: RawVariable] = [:]
        for _ in 0..<count {
            let name = try reader.string()
            let rank = Int(try reader.u8())
            guard rank <= 4 else { throw reader.failure("variable \(name) has rank \(rank)") }
            var shape: [Int] = []
            for _ in 0..<rank { shape.append(Int(try reader.u32())) }
            let dtype = try reader.u8()
            let size = Int(try reader.u32())
            let elements = shape.reduce(1, *)
            guard let width = RawVariable.width(dtype: dtype), elements * width == size else {
                throw reader.failure("variable \(name): dtype \(dtype) with \(size) bytes for shape \(shape)")
            }
            let offset = reader.offset
            try reader.skip(size)
            raw[name] = RawVariable(shape: shape, dtype: dtype, offset: offset, elements: elements)
        }
        var aliases: [(String, String)] = []
        if reader.remaining > 0 {
            let aliasCount = Int(try reader.u32())
            for _ in 0..<aliasCount { aliases.append((try reader.string(), try reader.string())) }
        }
        for (name, variable) in raw where !name.hasSuffix("_scale") || raw[String(name.dropLast(6))] == nil {
            if variable.shape.isEmpty, let value = variable.integer(in: mapping.bytes) {
                scalars[name] = value
            } else {
                let scale = raw[name + "_scale"]
                let matrix = try variable.floats(in: mapping.bytes, scale: scale, name: name, path: path)
                tensors[name] = (variable.shape, matrix)
                mapping.evict(offset: variable.offset, count: variable.elements * (RawVariable.width(dtype: variable.dtype) ?? 0))
            }
        }
        for (alias, target) in aliases {
            guard let tensor = tensors[target] else { throw reader.failure("alias \(alias) points to missing \(target)") }
            tensors[alias] = tensor
        }
    }
}

/// One variable's place in the mapped file.
private struct RawVariable {
    let shape: [Int]
    let dtype: UInt8
    let offset: Int
    let elements: Int

    static func width(dtype: UInt8) -> Int? {
        switch dtype {
        case 0, 3: 4
        case 1: 1
        case 2, 4, 5: 2
        default: nil
        }
    }

    /// The value of an integer or boolean scalar, or nil for a float.
    func integer(in bytes: UnsafeRawBufferPointer) -> Int? {
        switch dtype {
        case 1: Int(bytes.load(fromByteOffset: offset, as: Int8.self))
        case 2: Int(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self)))
        case 3: Int(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
        default: nil
        }
    }

    /// The values as float32; quantised integers are divided by their row scale.
    func floats(in bytes: UnsafeRawBufferPointer, scale: RawVariable?, name: String, path: String) throws -> Matrix {
        let rows = shape.count > 1 ? shape[0] : 1
        let cols = rows > 0 ? elements / rows : 0
        let matrix = Matrix(rows: rows, cols: cols)
        let out = matrix.pointer
        let base = bytes.baseAddress! + offset
        switch dtype {
        case 0:
            for i in 0..<elements { out[i] = Float(bitPattern: UInt32(littleEndian: (base + 4 * i).loadUnaligned(as: UInt32.self))) }
        case 4:
            for i in 0..<elements { out[i] = Float(Float16(bitPattern: UInt16(littleEndian: (base + 2 * i).loadUnaligned(as: UInt16.self)))) }
        case 5:
            for i in 0..<elements { out[i] = Float(bitPattern: UInt32(UInt16(littleEndian: (base + 2 * i).loadUnaligned(as: UInt16.self))) << 16) }
        case 1, 2:
            guard let scale, scale.dtype == 0, scale.elements == rows || scale.elements == 1 else {
                throw WhisperError.notAModel(path: path, reason: "quantised variable \(name) has no float scale per row")
            }
            let scaleBase = bytes.baseAddress! + scale.offset
            for r in 0..<rows {
                let s = Float(bitPattern: UInt32(littleEndian: (scaleBase + 4 * (scale.elements == 1 ? 0 : r)).loadUnaligned(as: UInt32.self)))
                let inverse: Float = s != 0 ? 1 / s : 0
                for c in 0..<cols {
                    let i = r * cols + c
                    let q: Float = dtype == 1
                        ? Float((base + i).load(as: Int8.self))
                        : Float(Int16(littleEndian: (base + 2 * i).loadUnaligned(as: Int16.self)))
                    out[i] = q * inverse
                }
            }
        default:
            throw WhisperError.unsupported(path: path, reason: "variable \(name) has dtype \(dtype)")
        }
        return matrix
    }
}

/// Bounds-checked little-endian reads from the mapped file.
private struct ByteReader {
    let bytes: UnsafeRawBufferPointer
    let path: String
    var offset = 0

    var remaining: Int { bytes.count - offset }

    func failure(_ reason: String) -> WhisperError { .notAModel(path: path, reason: reason) }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= remaining else { throw failure("truncated at byte \(offset) (needs \(count) more)") }
        offset += count
    }

    mutating func u8() throws -> UInt8 {
        let start = offset
        try skip(1)
        return bytes[start]
    }

    mutating func u16() throws -> UInt16 {
        let start = offset
        try skip(2)
        return UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt16.self))
    }

    mutating func u32() throws -> UInt32 {
        let start = offset
        try skip(4)
        return UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self))
    }

    /// A length-prefixed, NUL-terminated string.
    mutating func string() throws -> String {
        let length = Int(try u16())
        let start = offset
        try skip(length)
        guard length > 0, bytes[start + length - 1] == 0,
            let text = String(validating: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + length - 1)]), as: UTF8.self)
        else { throw failure("bad string at byte \(start - 2)") }
        return text
    }
}
