import Foundation

/// A read-only memory mapping of a whole file.
struct MappedFile {
    let bytes: UnsafeRawBufferPointer

    /// Maps `path`; a missing or unreadable file is reported as not a model.
    init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw WhisperError.notAModel(path: path, reason: String(cString: strerror(errno)))
        }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw WhisperError.notAModel(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size > 0 else { throw WhisperError.notAModel(path: path, reason: "empty file") }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), address != MAP_FAILED else {
            throw WhisperError.notAModel(path: path, reason: "cannot map: \(String(cString: strerror(errno)))")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    /// Releases the mapping.
    func close() {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
