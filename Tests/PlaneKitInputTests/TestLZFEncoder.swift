/// A deliberately plain LZF compressor for building `binary_compressed` test files: for each
/// position it searches the whole 8 KiB window for the longest match (brute force, fine for test
/// sizes) and emits literal runs and back-references, short and long. Independent of the
/// decoder under test: it only writes the item formats.
enum TestLZFEncoder {
    static func compress(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        var literals: [UInt8] = []
        func flushLiterals() {
            var start = 0
            while start < literals.count {
                let n = min(32, literals.count - start)
                out.append(UInt8(n - 1))
                out += literals[start..<(start + n)]
                start += n
            }
            literals.removeAll()
        }
        var i = 0
        while i < data.count {
            var bestLength = 0, bestDistance = 0
            let maxLength = min(264, data.count - i)
            if maxLength >= 3, i > 0 {
                for distance in 1...min(8192, i) {
                    var length = 0
                    // Overlap allowed: byte i + k compares with i + k - distance, already present.
                    while length < maxLength, data[i + length - distance] == data[i + length] { length += 1 }
                    if length > bestLength { bestLength = length; bestDistance = distance }
                    if bestLength == maxLength { break }
                }
            }
            if bestLength >= 3 {
                flushLiterals()
                let encodedLength = bestLength - 2, d = bestDistance - 1
                if encodedLength < 7 {
                    out.append(UInt8(encodedLength << 5 | d >> 8))
                } else {
                    out.append(UInt8(7 << 5 | d >> 8))
                    out.append(UInt8(encodedLength - 7))
                }
                out.append(UInt8(d & 0xFF))
                i += bestLength
            } else {
                literals.append(data[i])
                i += 1
            }
        }
        flushLiterals()
        return out
    }
}
