import PlaneKitAnchors
import PlaneKitGeometry
/// What one ``Relocalizer`` attempt saw and why it did not relocalize: the figures a log or a
/// benchmark needs to tell "too little in view" from "seen, but the checks refused it".
public struct RelocalizationAttempt: Sendable, Hashable {
    /// How far the attempt got: the first check the most promising hypothesis failed, or
    /// ``relocalized``.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// Fewer than two non-parallel vertical planes, or no horizontal one, in the session.
        case tooFewPlanes
        /// Plane pairs were tried but none fitted the map's covered ground.
        case noHypothesis
        /// The best hypotheses matched fewer than ``Relocalizer/Configuration/minimumMatches`` planes.
        case tooFewMatches
        /// Refinement left a residual above ``Relocalizer/Configuration/maximumResidual``.
        case residual
        /// Too few of the frame's points lay on the map's surfaces.
        case inliers
        /// The view held too little besides the room's shell (floor, ceiling, walls), or that
        /// little was not where the map has it.
        case nothingDistinct
        /// The frame saw through the map's surfaces, or too few map points agreed with it.
        case seeThrough
        /// Two clearly different registrations passed with nearly the same evidence, or the
        /// frame's points fitted nearly as well from another keyframe, 10 cm or 3° away.
        case ambiguous
        /// One registration passed every check.
        case relocalized
    }

    /// Session planes large enough to use.
    public var planes = 0
    /// Of them, vertical ones and horizontal ones.
    public var verticalPlanes = 0, horizontalPlanes = 0
    /// Session plane pairs matched against map plane pairs (turn and shift solved).
    public var candidatePairs = 0
    /// Hypotheses whose three planes lay on the map's covered ground.
    public var hypotheses = 0
    /// Distinct hypotheses refined and checked against the frame.
    public var verified = 0
    /// Most planes one hypothesis matched.
    public var bestMatches = 0
    /// The smallest residual after refinement (m), `nil` when nothing was refined.
    public var bestResidual: Float?
    /// The largest inlier share among refined hypotheses, `nil` when nothing was refined.
    public var bestInlierFraction: Float?
    /// Of the recent frames' distinct samples off the room's shell (``RecentSamples``), how many
    /// there were and how many lay on map surfaces, under the hypothesis with the most such
    /// inliers (`0, 0` when none got that far).
    public var distinctPoints = 0, distinctInliers = 0
    /// The smallest share of the map's points in view that the frame saw through, among
    /// registrations checked that far; `nil` when none was.
    public var bestSeeThroughFraction: Float?
    /// The map-from-session change of world the frame's points registered to (the best of the
    /// starts from the map's keyframes and those voted by ``Relocalizer``'s search), when that
    /// stage ran: a benchmark compares it with the truth.
    public var pointRegistration: Transform?
    /// How far the attempt got.
    public var outcome = Outcome.tooFewPlanes

    /// Nothing tried yet.
    public init() {}

    /// Keeps the later of the two stages (hypotheses of one attempt fail at different checks;
    /// the one that got furthest tells what stood in the way).
    mutating func reached(_ stage: Outcome) {
        let order = Outcome.allCases
        if (order.firstIndex(of: stage) ?? 0) > (order.firstIndex(of: outcome) ?? 0) { outcome = stage }
    }

    /// One line for a log: `planes 7 (3 vertical, 2 horizontal), pairs 40, hypotheses 5, …`.
    public var summary: String {
        var text = "planes \(planes) (\(verticalPlanes) vertical, \(horizontalPlanes) horizontal), pairs \(candidatePairs), "
            + "hypotheses \(hypotheses), verified \(verified), best matches \(bestMatches)"
        if let bestResidual { text += ", best residual \(Float(Int(bestResidual * 1e5)) / 100) mm" }
        if let bestInlierFraction { text += ", best inliers \(Int(bestInlierFraction * 100))%" }
        if distinctPoints > 0 { text += ", off-shell \(distinctInliers)/\(distinctPoints)" }
        if let bestSeeThroughFraction { text += ", seen through \(Float(Int(bestSeeThroughFraction * 1000)) / 10)%" }
        return text + ": \(outcome.rawValue)"
    }
}
