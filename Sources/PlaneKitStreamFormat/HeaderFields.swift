import PlaneKitGeometry
import PlaneKitInput

/// Typed, validated access to the members of a record's header object. Every accessor throws a
/// one-line message naming the field; absent optional fields give `nil`; fields the record kind
/// does not use are never looked at, so extra fields are ignored.
struct HeaderFields {
    let members: [(key: String, value: JSONValue)]

    /// The value of `key`, nil when absent, or an error when the key appears twice.
    func value(_ key: String) throws(HeaderProblem) -> JSONValue? {
        var found: JSONValue?
        for member in members where member.key == key {
            guard found == nil else { throw HeaderProblem("\"\(key)\" appears more than once") }
            found = member.value
        }
        return found
    }

    func required(_ key: String) throws(HeaderProblem) -> JSONValue {
        guard let value = try value(key) else { throw HeaderProblem("missing \"\(key)\"") }
        return value
    }

    /// A finite number as a `Double`.
    func double(_ key: String) throws(HeaderProblem) -> Double? {
        guard let value = try value(key) else { return nil }
        guard case let .number(x) = value else { throw HeaderProblem("\"\(key)\" must be a number, got \(value.kindName)") }
        guard x.isFinite else { throw HeaderProblem("\"\(key)\" is too large") }
        return x
    }

    func requiredDouble(_ key: String) throws(HeaderProblem) -> Double {
        guard let x = try double(key) else { throw HeaderProblem("missing \"\(key)\"") }
        return x
    }

    /// A number that is finite as a `Float`.
    func float(_ key: String) throws(HeaderProblem) -> Float? {
        guard let x = try double(key) else { return nil }
        let f = Float(x)
        guard f.isFinite else { throw HeaderProblem("\"\(key)\" is \(x), too large for a 32-bit float") }
        return f
    }

    func requiredFloat(_ key: String) throws(HeaderProblem) -> Float {
        guard let f = try float(key) else { throw HeaderProblem("missing \"\(key)\"") }
        return f
    }

    /// A whole number from 0 to 2⁵³.
    func integer(_ key: String) throws(HeaderProblem) -> Int? {
        guard let value = try value(key) else { return nil }
        guard case let .number(x) = value, x >= 0, x <= 0x1p53, x.rounded(.towardZero) == x else {
            throw HeaderProblem("\"\(key)\" must be a whole number ≥ 0, got \(HeaderFields.describe(value))")
        }
        return Int(x)
    }

    func requiredInteger(_ key: String) throws(HeaderProblem) -> Int {
        guard let n = try integer(key) else { throw HeaderProblem("missing \"\(key)\"") }
        return n
    }

    func string(_ key: String) throws(HeaderProblem) -> String? {
        guard let value = try value(key) else { return nil }
        guard case let .string(s) = value else { throw HeaderProblem("\"\(key)\" must be a string, got \(value.kindName)") }
        return s
    }

    func requiredString(_ key: String) throws(HeaderProblem) -> String {
        guard let s = try string(key) else { throw HeaderProblem("missing \"\(key)\"") }
        return s
    }

    /// An array of exactly `count` numbers, each finite as a `Float`.
    func floats(_ key: String, count: Int) throws(HeaderProblem) -> [Float]? {
        guard let value = try value(key) else { return nil }
        guard case let .array(elements) = value, elements.count == count else {
            throw HeaderProblem("\"\(key)\" must be an array of \(count) numbers, got \(HeaderFields.describe(value))")
        }
        var result: [Float] = []
        result.reserveCapacity(count)
        for (k, element) in elements.enumerated() {
            guard case let .number(x) = element, Float(x).isFinite else {
                throw HeaderProblem("\"\(key)\"[\(k)] must be a finite number, got \(HeaderFields.describe(element))")
            }
            result.append(Float(x))
        }
        return result
    }

    /// A nested object's fields.
    func object(_ key: String) throws(HeaderProblem) -> HeaderFields? {
        guard let value = try value(key) else { return nil }
        guard case let .object(members) = value else { throw HeaderProblem("\"\(key)\" must be an object, got \(value.kindName)") }
        return HeaderFields(members: members)
    }

    /// A short description of a value for messages: numbers and short strings verbatim.
    static func describe(_ value: JSONValue) -> String {
        switch value {
        case let .number(x): return x.rounded(.towardZero) == x && abs(x) < 1e18 ? String(Int64(x)) : "\(x)"
        case let .string(s): return s.count <= 24 ? "the string \"\(s)\"" : "a string"
        case let .array(a): return "an array of \(a.count)"
        default: return value.kindName
        }
    }
}

/// A header problem's message, before the record number is attached.
struct HeaderProblem: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
