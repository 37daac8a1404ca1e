/// Four neighbouring pixels of a 16-bit label image read as one 64-bit word.
///
/// The scans over a label image (``ConnectedPatches``' runs, ``LeftoverFaces``' search for
/// unlabelled pixels) look for the few pixels where a label changes or is missing. Most of a
/// frame is holes or the inside of a face, and a word lets those stretches be passed over four
/// pixels at a time.
enum LabelWords {
    /// The labels of pixels `index ..< index + 4` (which must all be in the image).
    @inline(__always) static func load(_ labels: UnsafeRawPointer, at index: Int) -> UInt64 {
        labels.loadUnaligned(fromByteOffset: 2 &* index, as: UInt64.self)
    }

    /// `true` when some label of `word` is 0 (no plane). The borrow of `x − 1` reaches a lane's
    /// top bit only from a zero lane or across one, so the answer for the word is exact.
    @inline(__always) static func hasZeroLane(_ word: UInt64) -> Bool {
        (word &- 0x0001_0001_0001_0001) & ~word & 0x8000_8000_8000_8000 != 0
    }
}
