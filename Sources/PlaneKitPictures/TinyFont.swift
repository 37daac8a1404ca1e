/// A 5×7 bitmap font for labelling plots: digits, capital letters and a little punctuation.
///
/// Each glyph is seven rows of five bits, top row in the highest byte, the leftmost pixel in
/// bit 4 of its row. Lower-case letters are drawn as capitals; other characters as a space.
enum TinyFont {
    /// Glyph rows.
    static let height = 7
    /// Pixels from one character to the next (5 of glyph, 1 of space).
    static let advance = 6

    private static let glyphs: [Character: UInt64] = [
        "0": 0x0E11_1315_1911_0E, "1": 0x040C_0404_0404_0E, "2": 0x0E11_0102_0408_1F, "3": 0x1F02_0402_0111_0E,
        "4": 0x0206_0A12_1F02_02, "5": 0x1F10_1E01_0111_0E, "6": 0x0608_101E_1111_0E, "7": 0x1F01_0204_0808_08,
        "8": 0x0E11_110E_1111_0E, "9": 0x0E11_110F_0102_0C,
        "A": 0x0E11_1111_1F11_11, "B": 0x1E11_111E_1111_1E, "C": 0x0E11_1010_1011_0E, "D": 0x1C12_1111_1112_1C,
        "E": 0x1F10_101E_1010_1F, "F": 0x1F10_101E_1010_10, "G": 0x0E11_1017_1111_0F, "H": 0x1111_111F_1111_11,
        "I": 0x0E04_0404_0404_0E, "J": 0x0702_0202_0212_0C, "K": 0x1112_1418_1412_11, "L": 0x1010_1010_1010_1F,
        "M": 0x111B_1515_1111_11, "N": 0x1111_1915_1311_11, "O": 0x0E11_1111_1111_0E, "P": 0x1E11_111E_1010_10,
        "Q": 0x0E11_1111_1512_0D, "R": 0x1E11_111E_1412_11, "S": 0x0F10_100E_0101_1E, "T": 0x1F04_0404_0404_04,
        "U": 0x1111_1111_1111_0E, "V": 0x1111_1111_110A_04, "W": 0x1111_1115_1515_0A, "X": 0x1111_0A04_0A11_11,
        "Y": 0x1111_110A_0404_04, "Z": 0x1F01_0204_0810_1F,
        ".": 0x0000_0000_000C_0C, ",": 0x0000_0000_0C04_08, "-": 0x0000_001F_0000_00, "=": 0x0000_1F00_1F00_00,
        "(": 0x0204_0808_0804_02, ")": 0x0804_0202_0204_08, "%": 0x1819_0204_0813_03, "/": 0x0001_0204_0810_00,
        ":": 0x000C_0C00_0C0C_00,
    ]

    /// Width in pixels of `text` at `scale`.
    static func width(of text: String, scale: Int = 1) -> Int {
        max(0, text.count * advance - 1) * scale
    }

    /// Calls `plot` for every lit pixel of `text` with its top-left corner at (`x`, `y`), each
    /// font pixel a `scale × scale` square.
    static func draw(_ text: String, x: Int, y: Int, scale: Int = 1, plot: (Int, Int) -> Void) {
        for (index, character) in text.uppercased().enumerated() {
            guard let bits = glyphs[character] else { continue }
            for row in 0..<height {
                let rowBits = (bits >> UInt64(8 * (height - 1 - row))) & 0x1F
                for column in 0..<5 where rowBits & (0x10 >> UInt64(column)) != 0 {
                    let left = x + (index * advance + column) * scale, top = y + row * scale
                    for dy in 0..<scale {
                        for dx in 0..<scale { plot(left + dx, top + dy) }
                    }
                }
            }
        }
    }
}
