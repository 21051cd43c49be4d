import Foundation

/// A `multipart/form-data` body built in memory.
struct MultipartForm {
    let boundary = "apipe-" + UUID().uuidString
    private var body: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func addField(name: String, value: String) {
        append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
    }

    mutating func addFile(name: String, filename: String, contentType: String, data: [UInt8]) {
        append("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n")
        body.append(contentsOf: data)
        append("\r\n")
    }

    /// The body with its closing boundary.
    mutating func finish() -> [UInt8] {
        append("--\(boundary)--\r\n")
        return body
    }

    private mutating func append(_ text: String) {
        body.append(contentsOf: Array(text.utf8))
    }
}
