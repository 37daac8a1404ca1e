/// A small, forgiving XML reader for camera sidecar files: elements, attributes (skipped), text,
/// comments, processing instructions, CDATA and the five predefined entities. Several top-level
/// elements are allowed (OpenNI's sidecars have `<rgb>` and `<depth>` side by side).
struct MiniXML {
    /// The deepest nesting of elements accepted: 64. OpenNI's sidecars nest three deep; the
    /// limit keeps the tree's recursive walks (``Element/find(_:)``, and freeing it) off the
    /// end of the stack however the file is nested.
    static let maximumDepth = 64

    /// An element: its name, its text (concatenated) and its child elements.
    struct Element {
        var name: String
        var text = ""
        var children: [Element] = []

        /// The first child called `name`.
        func child(_ name: String) -> Element? { children.first { $0.name == name } }

        /// The first element called `name` in this subtree, this element included (depth first).
        func find(_ name: String) -> Element? {
            if self.name == name { return self }
            for c in children { if let hit = c.find(name) { return hit } }
            return nil
        }
    }

    /// A synthetic root holding the document's top-level elements.
    let root: Element

    /// Parses `text`, or throws with `source` and the problem.
    init(_ text: String, source: String) throws(InputError) {
        let s = Array(text.utf8)
        var i = 0
        var stack = [Element(name: "")]
        func fail(_ problem: String) -> InputError { InputError(source: source, problem: "XML: \(problem)") }
        func starts(_ prefix: String, at position: Int) -> Bool {
            let p = Array(prefix.utf8)
            return s.count - position >= p.count && Array(s[position..<(position + p.count)]) == p
        }
        func skip(past terminator: String) throws(InputError) {
            while i < s.count, !starts(terminator, at: i) { i += 1 }
            guard i < s.count else { throw fail("unterminated '\(terminator)' construct") }
            i += terminator.utf8.count
        }
        func isNameByte(_ b: UInt8) -> Bool {
            b == 0x2D || b == 0x2E || b == 0x5F || b == 0x3A || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80
        }
        while i < s.count {
            if s[i] != 0x3C {  // text up to the next '<'
                let start = i
                while i < s.count, s[i] != 0x3C { i += 1 }
                stack[stack.count - 1].text += MiniXML.decodeEntities(String(decoding: s[start..<i], as: UTF8.self))
                continue
            }
            if starts("<!--", at: i) { try skip(past: "-->"); continue }
            if starts("<?", at: i) { try skip(past: "?>"); continue }
            if starts("<![CDATA[", at: i) {
                let start = i + 9
                try skip(past: "]]>")
                stack[stack.count - 1].text += String(decoding: s[start..<(i - 3)], as: UTF8.self)
                continue
            }
            if starts("<!", at: i) { try skip(past: ">"); continue }
            if starts("</", at: i) {
                i += 2
                let start = i
                while i < s.count, isNameByte(s[i]) { i += 1 }
                let name = String(decoding: s[start..<i], as: UTF8.self)
                try skip(past: ">")
                guard stack.count > 1, stack[stack.count - 1].name == name else {
                    throw fail("closing tag </\(name)> does not match an open element")
                }
                let done = stack.removeLast()
                stack[stack.count - 1].children.append(done)
                continue
            }
            i += 1
            let start = i
            while i < s.count, isNameByte(s[i]) { i += 1 }
            guard i > start else { throw fail("malformed tag") }
            let name = String(decoding: s[start..<i], as: UTF8.self)
            // Skip attributes, honouring quotes so a '>' inside a value does not end the tag.
            var quote: UInt8 = 0
            while i < s.count {
                let b = s[i]
                if quote != 0 { if b == quote { quote = 0 } } else if b == 0x22 || b == 0x27 { quote = b } else if b == 0x3E { break }
                i += 1
            }
            guard i < s.count else { throw fail("unterminated tag <\(name)>") }
            let selfClosing = s[i - 1] == 0x2F
            i += 1
            if selfClosing {
                stack[stack.count - 1].children.append(Element(name: name))
            } else {
                // The synthetic root is not counted.
                guard stack.count <= MiniXML.maximumDepth else { throw fail("elements nested more than \(MiniXML.maximumDepth) deep") }
                stack.append(Element(name: name))
            }
        }
        guard stack.count == 1 else { throw fail("element <\(stack[stack.count - 1].name)> is never closed") }
        root = stack[0]
    }

    /// `text` with `&lt; &gt; &amp; &quot; &apos;` replaced.
    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        return text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}

private extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
