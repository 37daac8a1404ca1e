/// An open-addressing hash from packed voxel keys to indices (`Int32`), for structures that
/// look a voxel up once per measured point: no allocation per lookup, one multiply to hash.
struct VoxelIndex: Sendable {
    /// Slots: an index, or −1 for an empty slot.
    private var slots = ContiguousArray<Int32>()
    /// The key of each slot's index.
    private var keys = ContiguousArray<Int64>()
    /// How many keys are held.
    private(set) var count = 0

    /// An empty index.
    init() {}

    /// The packed key of the cell holding the scaled point `p / size` (21 bits a coordinate).
    @inline(__always) static func key(_ scaled: SIMD3<Float>) -> Int64 {
        let limit: Float = 1_048_575
        @inline(__always) func bits(_ x: Float) -> Int64 { Int64(min(max(x.rounded(.down), -limit), limit)) & (1 << 21 - 1) }
        return bits(scaled.x) | bits(scaled.y) << 21 | bits(scaled.z) << 42
    }

    /// The index stored for `key`, `nil` when there is none.
    @inline(__always) func find(_ key: Int64) -> Int? {
        guard !slots.isEmpty else { return nil }
        var slot = Self.slot(of: key, mask: slots.count - 1)
        while true {
            let index = slots[slot]
            if index < 0 { return nil }
            if keys[slot] == key { return Int(index) }
            slot = (slot + 1) & (slots.count - 1)
        }
    }

    /// Stores `index` for `key`, which must not be held yet.
    mutating func insert(_ key: Int64, index: Int) {
        if (count + 1) * 2 > slots.count { resize(to: max(1 << 12, slots.count * 2)) }
        var slot = Self.slot(of: key, mask: slots.count - 1)
        while slots[slot] >= 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = Int32(index)
        keys[slot] = key
        count += 1
    }

    /// Forgets every key.
    mutating func removeAll() {
        slots.removeAll(keepingCapacity: true)
        keys.removeAll(keepingCapacity: true)
        count = 0
    }

    @inline(__always) private static func slot(of key: Int64, mask: Int) -> Int {
        // Fibonacci hashing: the high bits of the product mix all three coordinates.
        Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    /// Rebuilds the hash with `size` slots (a power of two).
    private mutating func resize(to size: Int) {
        let oldKeys = keys, oldSlots = slots
        slots = ContiguousArray(repeating: -1, count: size)
        keys = ContiguousArray(repeating: 0, count: size)
        for i in oldSlots.indices where oldSlots[i] >= 0 {
            var slot = Self.slot(of: oldKeys[i], mask: size - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = oldSlots[i]
            keys[slot] = oldKeys[i]
        }
    }
}
