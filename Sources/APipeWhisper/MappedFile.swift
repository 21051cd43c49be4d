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

    /// Drops the resident pages wholly inside `offset..<offset+count` (they stay readable:
    /// the kernel reads them again from the file), so converted weights don't count twice in RSS.
    func evict(offset: Int, count: Int) {
        guard let base = bytes.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (offset + page - 1) / page * page
        let end = (offset + count) / page * page
        if end > start { madvise(UnsafeMutableRawPointer(mutating: base + start), end - start, Int32(MADV_DONTNEED)) }
    }

    /// Releases the mapping.
    func close() {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}
