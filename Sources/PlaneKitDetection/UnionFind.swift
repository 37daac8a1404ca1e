/// Disjoint sets kept as a parent array: `parent[x] == x` for a set's root.
///
/// Region growing and face labelling merge regions and patches this way. The parent array is
/// passed `inout` rather than captured by a nested function, which would make every access to
/// it an exclusivity check at run time.
enum UnionFind {
    /// The root of `x`'s set, halving the path on the way.
    @inline(__always) static func root<Index: FixedWidthInteger>(_ x: Index, in parent: inout [Index]) -> Index {
        var x = x
        while parent[Int(x)] != x {
            parent[Int(x)] = parent[Int(parent[Int(x)])]
            x = parent[Int(x)]
        }
        return x
    }
}
