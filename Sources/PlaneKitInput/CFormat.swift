#if canImport(Glibc)
import Glibc
#endif

/// Text for tables and messages without Foundation's `String(format:)`.
///
/// Why: importing Foundation (rather than FoundationEssentials) loads its
/// internationalization libraries and ICU, about 3 ms of every start of the CLI. Numbers are
/// formatted by the C library's `vsnprintf`, which `String(format:)` itself uses for them;
/// strings go in by interpolation, with `padded(_:to:)` for column widths.
public enum CFormat {
    /// `format` with `arguments` substituted, as C's `printf` does. Numeric conversions only
    /// (`%d`, `%f`, `%g`, …): a Swift string is not a C argument, so interpolate strings.
    public static func string(_ format: String, _ arguments: any CVarArg...) -> String {
        withVaList(arguments) { list in
            var buffer = ContiguousArray<CChar>(repeating: 0, count: 128)
            // vsnprintf consumes the list, so a retry after growing needs a fresh copy of it.
            let needed = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, list) }
            guard needed >= buffer.count else { return String(cString: Array(buffer)) }
            return withVaList(arguments) { retry in
                buffer = ContiguousArray(repeating: 0, count: Int(needed) + 1)
                _ = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, retry) }
                return String(cString: Array(buffer))
            }
        }
    }

    /// `text` padded with spaces to `width` characters: a positive width left-aligns (the text
    /// first), a negative one right-aligns; text already as wide stays as it is.
    package static func padded(_ text: String, to width: Int) -> String {
        let padding = String(repeating: " ", count: max(0, abs(width) - text.count))
        return width < 0 ? padding + text : text + padding
    }

    /// `text` without leading and trailing spaces, tabs and line ends.
    package static func trimmed<Text: StringProtocol>(_ text: Text) -> String {
        String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// The numbers of a comma-separated list such as `1, -2.5,3`; nil for an entry that is not one.
    package static func floats(commaSeparated text: String) -> [Float?] {
        text.split(separator: ",", omittingEmptySubsequences: false).map { Float(trimmed($0)) }
    }
}
