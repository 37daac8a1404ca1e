/// A structured-light scanner's decoding errors: a reading whose stripe code was misread lands
/// centimetres off the surface, alone or with its right-hand neighbour, most often on faces
/// seen at a grazing angle, where the stripes crowd together.
///
/// A reading becomes a spike with probability ``rate`` + ``grazingRate`` · `r`, `r` being the
/// ``SimulatedSensor/grazing`` ramp (0 without one); its depth then moves nearer or farther (either
/// equally likely) by ``minimumHeight`` + (``maximumHeight`` − ``minimumHeight``) · `u²`, `u`
/// uniform in [0, 1), before the depth is rounded to its step. With probability
/// ``pairChance`` the next pixel of the row, if it has a reading, moves by the same amount.
/// The ground truth keeps the spike's face, as ABW's does.
///
/// On SegComp's ABW dev images (readings more than 4 depth steps beyond all four readings two
/// pixels away, on ground-truth faces): 0.05% of the readings of faces within 70° of facing the
/// scanner, 0.5% at 70–80° and 1.6% at 80–90°; 21% of them in horizontal pairs; beyond their
/// neighbours by 8 mm (10th percentile), 20 mm (median) and 70 mm (90th percentile).
public struct DecodingSpikes: Sendable, Hashable {
    /// Probability that any reading is a spike.
    public var rate: Float
    /// Probability added at the end of the grazing ramp.
    public var grazingRate: Float
    /// Smallest depth error of a spike (m).
    public var minimumHeight: Float
    /// Largest depth error of a spike (m).
    public var maximumHeight: Float
    /// Probability that a spike takes its right-hand neighbour along.
    public var pairChance: Float

    /// Decoding spikes from their parts.
    public init(rate: Float = 0.0005, grazingRate: Float = 0.02, minimumHeight: Float = 0.006, maximumHeight: Float = 0.08,
                pairChance: Float = 0.12) {
        self.rate = rate
        self.grazingRate = grazingRate
        self.minimumHeight = minimumHeight
        self.maximumHeight = maximumHeight
        self.pairChance = pairChance
    }

    /// The random stream of the spikes' draws (``SimulatedSensorRenderer`` keeps one per effect).
    static let stream: UInt64 = 8
}
