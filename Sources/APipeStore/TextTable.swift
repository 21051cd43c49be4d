/// A plain-text table: columns padded to their widest cell, numbers right-aligned.
public struct TextTable {
    public enum Alignment { case left, right }
    private let headers: [String]
    private let alignments: [Alignment]
    private var rows: [[String]] = []

    public init(_ columns: [(String, Alignment)]) {
        headers = columns.map(\.0)
        alignments = columns.map(\.1)
    }

    public mutating func add(_ cells: [String]) {
        rows.append(cells)
    }

    /// The table as lines, each prefixed with `indent`; the last column is never padded.
    public func render(indent: String = "") -> [String] {
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var parts: [String] = []
            for (i, cell) in cells.enumerated() {
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                if i == cells.count - 1, alignments[i] == .left {
                    parts.append(cell)
                } else {
                    parts.append(alignments[i] == .right ? pad + cell : cell + pad)
                }
            }
            return indent + parts.joined(separator: "  ")
        }
        return [line(headers)] + rows.map(line)
    }
}
