/// Lets a value that starts with a minus sign follow its option as a separate word:
/// `--up -0.1,-0.9,-0.4`, `--origin -0.1,0,0`, `--max-depth -1`.
///
/// swift-argument-parser reads any word that starts with `-` as an option, so such a value left
/// its option "missing a value". Before parsing, every long option (`--name`, no `=`) followed by
/// a word that is a number or a comma-separated list of numbers starting with `-` is joined with
/// it as `--name=-0.1,…`, which the parser reads as the option's value. This covers every option
/// of every command that takes numbers, whatever its type, with no list to keep up to date. A
/// flag (which takes no value) followed by a negative number was an error before and still is;
/// words after `--` are left alone.
public enum NegativeNumberArguments {
    /// `arguments` (without the program name) with each `--option -number` joined.
    public static func joined(_ arguments: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(arguments.count)
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            if word == "--" {
                result.append(contentsOf: arguments[index...])
                break
            }
            if word.hasPrefix("--"), word.count > 2, !word.contains("="), index + 1 < arguments.count,
               isNegativeNumber(arguments[index + 1]) {
                result.append(word + "=" + arguments[index + 1])
                index += 2
                continue
            }
            result.append(word)
            index += 1
        }
        return result
    }

    /// `true` for `-1`, `-0.1,-0.9,-0.4`, `-.5`, `-1e-3,2`: a minus sign, then a digit or a
    /// point and a digit, and only the characters of numbers and commas after it (so `-h` and
    /// a file named `-1.pcd` are not taken).
    static func isNegativeNumber(_ word: String) -> Bool {
        let bytes = Array(word.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "-") else { return false }
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let startsNumber = digits.contains(bytes[1])
            || (bytes[1] == UInt8(ascii: ".") && bytes.count > 2 && digits.contains(bytes[2]))
        guard startsNumber else { return false }
        let allowed = Set(Array("0123456789.,eE+-".utf8))
        return bytes.allSatisfy(allowed.contains)
    }
}
