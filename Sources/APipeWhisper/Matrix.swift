/// A row-major float matrix in its own allocation, read-only once built when shared.
///
/// Weights are built at load and never written again, so sharing them across tasks is safe.
final class Matrix: @unchecked Sendable {
    let rows: Int
    let cols: Int
    let pointer: UnsafeMutablePointer<Float>

    /// A zero-filled `rows x cols` matrix.
    init(rows: Int, cols: Int) {
        self.rows = rows
        self.cols = cols
        pointer = .allocate(capacity: max(1, rows * cols))
        pointer.initialize(repeating: 0, count: max(1, rows * cols))
    }

    deinit { pointer.deallocate() }

    var count: Int { rows * cols }

    /// Start of row `row`.
    @inline(__always) func row(_ row: Int) -> UnsafeMutablePointer<Float> { pointer + row * cols }
}
