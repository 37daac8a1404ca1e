import Testing
@testable import PlaneKitDetection

/// Four labels as one word: the zero-lane test the label scans skip pixels by.
@Suite struct LabelWordsTests {
    /// The word of four labels, the first in the lowest bits (as a little-endian load reads them).
    static func word(_ labels: [UInt16]) -> UInt64 {
        labels.enumerated().reduce(0) { $0 | UInt64($1.element) << (16 * UInt64($1.offset)) }
    }

    @Test func aZeroLaneIsFoundWhereverItIs() {
        for values: [UInt16] in [[1, 2, 3, 4], [0x8000, 0xFFFF, 0x0100, 1], [1, 1, 1, 1], [0x7FFF, 0x8001, 2, 0xFFFE]] {
            #expect(!LabelWords.hasZeroLane(Self.word(values)), "\(values)")
            for lane in 0..<4 {
                var withHole = values
                withHole[lane] = 0
                #expect(LabelWords.hasZeroLane(Self.word(withHole)), "\(withHole)")
            }
        }
        #expect(LabelWords.hasZeroLane(0))
    }

    @Test func loadReadsFourPixelsFromAnIndex() {
        let labels: [UInt16] = [9, 1, 2, 3, 4, 0]
        labels.withUnsafeBytes { raw in
            #expect(LabelWords.load(raw.baseAddress!, at: 1) == Self.word([1, 2, 3, 4]))
            #expect(LabelWords.hasZeroLane(LabelWords.load(raw.baseAddress!, at: 2)))
        }
    }
}
