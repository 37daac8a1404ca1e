/// Time-of-flight "flying pixels": a pixel whose footprint straddles a depth edge receives light
/// from both surfaces and reports a depth between them, a point floating in mid-air.
///
/// A reading becomes one with probability ``probability`` when one of its 4-neighbours' surfaces
/// lies more than ``jump`` metres nearer or farther: its depth is then `z + α · (z′ − z)` with
/// `α` uniform in (0, 1) and `z′` the depth across the largest such jump. Flying pixels lie on
/// no surface, so their ground-truth label is 0.
public struct FlyingPixels: Sendable, Hashable {
    /// The depth difference to a neighbour (m) that makes a pixel straddle an edge.
    public var jump: Float
    /// The chance that a pixel at such an edge reads a mixed depth.
    public var probability: Float

    /// Flying pixels from their parts.
    public init(jump: Float = 0.05, probability: Float = 0.6) {
        self.jump = jump
        self.probability = probability
    }
}
