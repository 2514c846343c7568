"""Every threshold the recognizer reads a photo with, in one frozen configuration.

`VisionConfig` holds one frozen section per stage; each threshold is named
once, here, with why it has its value. Stages take the whole configuration
(`config: VisionConfig`) and read their section, so a caller may try other
values by `dataclasses.replace` without touching any module: the layout's
other readings (`LayoutConfig.other_readings`) are made that way. How a
value was chosen is told in the commit that set it and in
`models/MODEL_CARD.md`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

#: a tile's length over its width: the shape every stage expects a tile to have
TILE_ASPECT = 1.35


@dataclass(frozen=True)
class DetectConfig:
    """Where the tiles are (`vision.detect`)."""

    #: the least heatmap score of a tile: fewest false tiles at full recall on real photos
    threshold: float = 0.5
    #: boxes overlapping this much (IoU) are one tile found twice: the detector also peaks
    #: a third of a tile off a patterned face, while neighbours on a row barely overlap
    nms_iou: float = 0.33
    #: a box this much inside a surer box at most `part_area` its size is a part of that
    #: tile (a pip, a figure) found alone: tiles lie side by side, not inside one another
    part_inside: float = 0.7
    part_area: float = 0.6
    #: tiles whose median short side at the model's input is under this many pixels are
    #: looked for again in a crop around them (a hand photographed from afar)
    small_tile: float = 24
    #: a photo is also looked at `table_input` px wide (it saw tables at that input) by
    #: the detector trained on whole tables, and taken as a table when that look finds
    #: more tiles than a hand lays down (`RegionsConfig.hand_most`) and either the
    #: smallest tenth (`table_small`) of the usual look's tiles is under `small_tile` at
    #: its input, or `table_new` of its tiles lie (their centres) outside every tile of
    #: the usual look (seen from a seat, the usual look may find only the nearest tiles)
    table_small: float = 0.1
    table_input: int = 1280
    table_new: int = 12
    #: boxes overlapping this much (IoU) in the table detector's look are one tile found
    #: twice: seen from a seat, standing tiles, a wall's stacks and far rows overlap their
    #: neighbours' boxes more than a posed hand's tiles do (five sets of table renders:
    #: tiles found +0.012-0.015, false tiles +0.3-0.5 %, hands read right 765 -> 767)
    table_nms_iou: float = 0.45
    #: tiles small at the input but spread over the whole photo are looked at again with
    #: the photo enlarged so their median short side is this many pixels, the input's long
    #: side at most `large_input`
    target_tile: float = 32
    large_input: int = 1600
    #: a photo filled by one tile shows the model only its parts (pips, strokes) at the
    #: usual input: with no more boxes than `close_most` found, each under `close_part` of
    #: the photo, it is also looked at `close_input` px wide, where the tile is tile-sized;
    #: one box there covering `close_area` of the photo and the parts is that tile
    close_most: int = 8
    close_part: float = 0.2
    close_input: int = 128
    close_area: float = 0.2
    #: ... and where the usual input saw nothing, only a box this sure and this tile-shaped
    #: (long side over short; a photo squeezed out of proportion shows no such box)
    close_sure: float = 0.8
    close_aspect: tuple[float, float] = (1.15, 1.7)
    #: margin kept around the tiles found for that closer look, in their median long side
    zoom_margin: float = 2.0
    #: the least gain in scale that makes the closer look worth its time
    min_zoom: float = 1.3
    #: median boxes this many times longer than wide come from a stretched photo
    stretched: float = 1.8
    #: how much more summed score a squeezed-back look must find to be taken when the
    #: stretch was only guessed (next to nothing found): a blind search must find clearly more
    stretch_gain: float = 1.25
    #: ... and when the boxes showed the stretch: about as much is enough
    stretch_keep: float = 0.9
    #: the long side a huge photo is brought to before squeezing it back (4 model inputs)
    work_size: int = 2048
    #: with fewer tiles found than this the stretch is unknown ...
    few_tiles: int = 3
    #: ... and the photo is tried squeezed along each axis by these factors
    stretch_factors: tuple[float, ...] = (2.5, 5.0, 8.0)


@dataclass(frozen=True)
class TurnConfig:
    """A photo whose rows run at a slant, read turned square to them (`vision.turn`)."""

    #: rows this many degrees or more off the photo's axes are read turned square to them
    #: (posed held-out hands at 20-30 degrees read better turned: B 139 -> 140, B3 133 ->
    #: 135, real photos 0.9711 -> 0.9714 / 0.9717, tables as before; 15 gains no more)
    tilt: float = 20.0
    #: the long side of a tile's box the turned part is shrunk to (the crops are 64 px)
    tile_px: float = 128.0
    #: margin around the tiles found, in tile lengths, that is turned with them
    margin: float = 1.5
    #: the turned look is kept when it finds at least this share of the first look's tiles,
    keep_found: float = 0.8
    #: ... and its median box is at most this share of the first look's in area: a tile at
    #: 30-45 degrees fills about half its upright box, one only seeming to fills it already
    tighter: float = 0.75
    #: a box mapped back overlapping (IoU) a first look's box this much is reported as it
    same_tile: float = 0.5


@dataclass(frozen=True)
class ClassifyConfig:
    """What each tile is (`vision.classify`)."""

    #: a box closer to square than this (long side over short) does not tell which way its
    #: tile lies: it is read both ways and the surer reading kept
    square: float = 1.15
    #: the row view's crop size against the tile's rectangle from the row's spacing
    row_crop: float = 1.0
    #: a tile whose likeliest class is less probable than this is read from more views and
    #: by the second classifier (most of a hand's tiles read surer; the rest pay for it)
    unsure: float = 0.9
    #: an unsure tile's box widened this much (a little body and table steady a known set)
    #: weighs this much against the first two views' one
    wider_box: float = 1.12
    wider_weight: float = 1.5
    #: and its row rectangle tightened this much (the face alone steadies unfamiliar art)
    tighter_row: float = 0.8
    tighter_weight: float = 1.0
    #: the second classifier's say on an unsure tile: as much as all the first's views, since
    #: two models trained on different mixes err apart
    second_weight: float = 4.5
    #: a view whose likeliest class by the first classifier is less probable than this is
    #: also read by its partners (`vision.classify.READING_MODELS`) and their reads averaged;
    #: a surer view keeps the first's read: on held-out tiles the partner changes only the
    #: views the first doubts, so the rest need not pay for its reading
    partner_below: float = 0.7


@dataclass(frozen=True)
class ExemplarConfig:
    """A table's own set, from the tiles its players named (`vision.exemplars`).

    Chosen on scenes written in fonts no training run sees (`datasets.styles`
    `checkfonts`), three photos named per set: their tiles read right 0.863 ->
    0.894 (docs/experiments.md, sixteenth round).
    """

    #: how alike (cosine of looks) a tile must be to another tile's exemplars to move
    #: there when the classifier's own choice has exemplars too ...
    near: float = 0.7
    #: ... and how much more alike than to its own choice's
    margin: float = 0.05
    #: how alike it must be when the classifier's choice has none
    same: float = 0.85
    #: the share of a moved tile's probability given to the exemplars' tile
    weight: float = 0.7
    #: the most exemplars a request may send (a game's hands, about 18 tiles each)
    most: int = 300


@dataclass(frozen=True)
class TileSetConfig:
    """A set taught from a photo of it laid out in order (`vision.tileset`)."""

    #: the least share of the tiles the reader itself reads as their places name them:
    #: fewer, and the photo is likely not laid out in the set's order
    agree: float = 0.5
    #: tiles this many times the usual distance to a nearest tile apart at most ...
    step: float = 1.4
    #: ... and in the rows' direction within this many degrees lie side by side in a row
    bend: float = 25.0
    #: found this many boxes more than a set holds at most, those lying on a surer box
    #: (IoU at least `twice`: a tile found twice) are left out; more, and the photo is
    #: refused
    spare: int = 2
    twice: float = 0.3
    #: ... then the faintest, where each is found less surely than this (a tile's box is
    #: found at 0.7 or more in a set's photo)
    faint: float = 0.6
    #: a row's tiles lie this near the line through a longer row's (in the tiles' short
    #: side): one row laid out with a gap in it
    line: float = 0.5


@dataclass(frozen=True)
class FaintConfig:
    """Face-down tiles found too faintly, taken beside the backs found (`vision.faint`)."""

    #: the least detector score of a box taken beside a back
    floor: float = 0.3
    #: the least probability of `back` for a faint box to be taken
    back: float = 0.6
    #: a faint box overlapping a found tile this much (IoU) is that tile found again
    same_tile: float = 0.3
    #: where a kong's back may lie from a back found, centre to centre in tile lengths along
    #: the row: from the next place (less for perspective) to three places on
    kong_steps: tuple[float, float] = (0.4, 2.4)
    #: how far off the row's line (tile lengths): a kong lies in one straight line
    in_line: float = 0.2
    #: a kong's backs are one size: the faint box's area at most this many times the back's
    same_size: float = 1.5


@dataclass(frozen=True)
class OrientConfig:
    """Which way each face points (`vision.orient`)."""

    #: how surely the face in a tile's sideways rectangle must point along the row for that
    #: view to speak (along minus across, confidence-weighted)
    face_along_view: float = 0.6
    #: the most tiles that view may take for sideways (one per claimed meld): more means the
    #: rows were judged along the tiles' length, and the view is not heard
    most_lying: int = 4


@dataclass(frozen=True)
class StackedConfig:
    """Whether a tile lies on another (`vision.stacked`, `vision.layout.stacks`)."""

    #: how far the box is widened for the crop: the tile, its side walls and a little around
    margin: float = 1.6
    #: how sure the model must be to read a promoted kong: surer than a single sideways
    #: tile of a pung reads. A table's pungs far outnumber its promoted kongs, so a false
    #: fourth tile costs as many hands as a missed one (docs/experiments.md, forty-third round)
    sure: float = 0.9


#: flowers and seasons in a set (梅兰竹菊, 春夏秋冬)
FLOWERS_IN_SET = 8

#: faces that look (nearly) the same turned 180 degrees in common tile art: the orienter
#: reads them "top up the photo" on unfamiliar art whichever way they lie
SYMMETRIC_FACES = frozenset(
    ["1p", "2p", "3p", "4p", "5p", "8p", "9p", "2s", "4s", "5s", "6s", "8s", "9s", "C", "P"]
)


@dataclass(frozen=True)
class RegionsConfig:
    """The winner's hand among the table's other tiles (`vision.regions`: pieces named in
    `vision.pieces`, the hand's candidates grown in `vision.reach`), in tile sizes (the
    shorter side of a tile's box)."""

    #: more tiles than this and the photo shows more than one hand: 18 tiles of four
    #: kongs and 8 flowers are the most a hand lays down
    hand_most: int = 26
    #: tiles whose boxes lie this close (in the smaller one's size) are in one piece
    link_gap: float = 0.45
    #: ... when neither is more than this many times the other's size
    size_ratio: float = 1.7
    #: a laid-down hand's parts lie this far apart along its row (the winning tile, the
    #: melds and flowers set apart), in tile sizes ...
    hand_gap_along: float = 2.6
    #: ... and this far behind it (towards the wall) ...
    hand_gap_across: float = 1.6
    #: ... or in front of it, nearer the player (flowers, melds; flowers laid beyond the
    #: row the melds would take lie near three tile sizes out)
    hand_gap_front: float = 3.0
    #: a tile is face down when the back is this likely
    back_p: float = 0.5
    #: faces whose direction says nothing of where their player sits, when other faces of
    #: the piece do (flowers, often unfamiliar art, have no say either)
    symmetric: frozenset[str] = SYMMETRIC_FACES
    #: a piece this much face down is a wall or a hand seen from behind
    backs_share: float = 0.6
    #: a wall's stacks: the share of its tiles lying on or under another
    stacked_share: float = 0.25
    #: the most tiles a hand seen from behind shows standing (13 and the one drawn): a row
    #: of more backs is a wall, its stacks seen or not
    standing_most: int = 14
    #: a wall's lower tiles show strips of their sides: a piece of backs this much thinner
    #: (its boxes' short side) than the wall's tiles it touches is that wall's
    strip_thin: float = 0.6
    #: a wall's lower tile shows a strip of its side under the upper one (`stacked`):
    #: lined up with it (this share of the narrower box's width overlapping) ...
    strip_overlap: float = 0.6
    #: ... the tile above at least this many times the strip's height ...
    strip_under: float = 1.8
    #: ... and this near above it (in the lower box's height)
    strip_gap: float = 0.15
    #: a row of this many backs or more ...
    behind_least: int = 5
    #: ... with another such row further out in the same direction from the table's middle
    #: (their directions' cosine at least this) ...
    behind_cos: float = 0.9
    #: ... and this many times as far out is a wall, the row behind it a hand
    behind_far: float = 1.15
    #: the most tiles in one row of a discard pond
    pond_row: int = 6
    #: a tile is in a row when its centre lies this near the row's line, in tile sizes
    #: across the row: seen from a seat a pond's rows slant, and a wider band takes the
    #: next row's end tile into a row of six
    row_band: float = 0.3
    #: a piece deeper than this across its row (in tile sizes) is rows behind rows (a
    #: pond), never the hand's row that a meld in front of it belongs to
    row_deep: float = 2.2
    #: a photo of more tiles than `hand_most` with at least this many backs is a whole
    #: table (its walls): only the hand's candidates are read with every view
    table_backs: int = 16
    #: how many candidates are read (then those lying near each other two together,
    #: `parts_apart`) before the nearest is taken without a hand (on rendered tables the
    #: hand is the first or the second)
    tries: int = 3
    #: two candidates this far apart at most (in tile sizes) are also read together as one
    #: hand laid out in two parts; further apart they are two players' tiles
    parts_apart: float = 3.0
    #: a concealed kong's backs in the hand's row: beginning within this many tile widths
    #: of the row's ends ...
    kong_reach: float = 1.5
    #: ... their centres this near (in tile heights) the line of the row's nearest tiles
    kong_line: float = 1 / 3
    #: ... tiles read as flowers this surely not counted among those: flowers lie apart,
    #: often in line with the wall in front of the hand
    kong_flower: float = 0.5
    #: ... and no more backs than a hand's four kongs lying face down show
    kong_backs_most: int = 16
    #: a row of faces read as a pond or a hand pushed over whose mean flower probability is
    #: this much may be the hand's flowers of unfamiliar art (as `LayoutConfig.flower_surplus`)
    flowers_p: float = 0.1
    #: flowers and seasons in a set
    flowers_in_set: int = FLOWERS_IN_SET
    #: tiles behind the row touching others that do not join are still the hand's when
    #: they all read as flowers this surely (a mean): flowers laid behind it; read less
    #: surely, they are as often a pond's or a meld's tiles
    flowers_behind_p: float = 0.5


@dataclass(frozen=True)
class RowsConfig:
    """Rows, each tile's extents in them and which tiles lie sideways (`vision.rows`)."""

    #: distance between row centre lines that starts a new row, in tile lengths
    row_split: float = 0.55
    #: how much wider for its length than an upright neighbour a sideways tile's box is
    sideways_ratio: float = 1.4
    #: a sideways tile's centre shift off its neighbours' centre line, in their lengths
    sideways_shift: float = 0.1
    #: the longest step along a row, in its usual steps, between tiles that touch
    touch_step: float = 1.45
    #: the fewest tiles in a row for fitting the rows' direction to it
    min_fit_row: int = 5
    #: how many tiles each side a tile's shape is compared with, and the quantile of their
    #: width/length ratios taken for an upright tile's (most tiles of a row stand upright)
    sideways_window: int = 2
    sideways_pct: float = 40
    #: how surely a face must point along its row to make a tile sideways where box shapes
    #: tell nothing (rows near the diagonal)
    face_along: float = 0.4
    #: a face pointing along the row this surely makes a tile sideways on `face_shape`'s
    #: shape evidence (unfamiliar art leaves the orienter half sure: at 0.5 rather than
    #: 0.6, three more hands of 600 fresh tables, none lost on eight sets)
    face_along_sure: float = 0.5
    face_shape: float = 0.5
    #: a face pointing across the row this surely keeps a tile upright whatever its box's
    #: shape (boxes on a tilted row come out wide); unfamiliar art leaves the orienter
    #: reading a sideways face 0.6-0.7 across (at 0.7 rather than 0.6, two more hands of
    #: 800 tables and five with the labels' names, none lost on the posed sets)
    face_across_sure: float = 0.7
    #: least cos²-sin² of the rows' tilt off an image axis for box shapes to tell a tile's
    #: width from its length (near the diagonal every box is about square)
    min_untilt: float = 0.2


@dataclass(frozen=True)
class Reading:
    """The thresholds one reading of a layout is made with, which a photo now and then sits
    right at: a winning tile set apart by a hair, tiles pushed together, a tilted tile's
    box that looks wide."""

    #: gap between touching tiles that still counts as "together", in tile widths
    gap_split: float = 0.3
    #: ... and by how much more than the row's usual spacing
    gap_over_usual: float = 0.3
    #: how much longer than its neighbours the step to a tile set apart at the row's end is
    set_apart_step: float = 1.2
    #: ... and by how much more than the step at the row's other end
    set_apart_margin: float = 0.1
    #: the summed shape evidence (width ratio in units of `RowsConfig.sideways_ratio`, shift
    #: in units of `RowsConfig.sideways_shift`) that makes a tile sideways
    sideways_score: float = 1.2
    #: ... of which the width alone must give at least this much
    sideways_min_wide: float = 0.5
    #: no tile read unsurely as a flower in a run holding a sideways tile (a meld row) is
    #: one (else a tile read as a flower is a playing tile only between playing tiles)
    melds_hold_no_flower: bool = False


#: only clearly sideways boxes make a tile sideways
CLEARLY_SIDEWAYS = Reading(sideways_score=1.6, sideways_min_wide=0.8)

#: the readings tried when the first gives no clean hand (`vision.readhand.read_hand`)
OTHER_READINGS: tuple[Reading, ...] = (
    Reading(gap_split=0.15, gap_over_usual=0.15),  # smaller gaps: tiles lying close apart
    Reading(gap_split=0.5, gap_over_usual=0.5),  # larger gaps: tiles pushed loosely together
    Reading(set_apart_step=1.1, set_apart_margin=0.05),  # a winning tile barely set apart
    CLEARLY_SIDEWAYS,
    Reading(sideways_score=0.9, sideways_min_wide=0.3),  # sideways boxes seen foreshortened
    Reading(sideways_score=math.inf, sideways_min_wide=math.inf),  # sideways by faces only
    Reading(melds_hold_no_flower=True),  # a meld's tiles read as flowers (a bird drawn for the 1s)
)


@dataclass(frozen=True)
class LayoutConfig:
    """How the tiles lie: melds, the hand row, flowers, direction (`vision.layout`)."""

    reading: Reading = Reading()
    other_readings: tuple[Reading, ...] = OTHER_READINGS
    #: the reading whose sideways tiles another reading counts upright only with a doubt
    #: each (`vision.readhand.read_hand`): their boxes show them sideways plainly
    sideways_plain: Reading = CLEARLY_SIDEWAYS
    #: how close in size and shape a tile stacked on a sideways one is to it
    stack_size: float = 0.7
    #: how much of the smaller of two boxes their overlap covers when one tile is found twice
    duplicate_cover: float = 0.55
    #: rows this far off the image's axes (radians) have their duplicates judged again by
    #: where they lie along the row (`vision.layout.stacks.apart_in_rows`) ...
    duplicate_untilt: float = math.radians(8)
    #: ... a tile found twice has its boxes' centres closer than this share of the row's step
    duplicate_step: float = 0.5
    #: the most upright tiles a hand row can hold (14, and a stray one)
    max_hand_row: int = 15
    #: a meld's claimed tile lies across the row, the widest of its tiles along it: the
    #: sideways mark moves to a tile of the meld this much wider than the marked one
    claimed_widest: float = 1.1
    #: tile lengths from the hand row within which a player's melds and flowers lie
    meld_reach: float = 3.0
    #: tile lengths from the hand's tiles within which its flowers lie: one row beyond its melds
    flower_reach: float = 4.5
    #: ... or from a flower so reached, in tile lengths: the flowers lie together in a row
    flower_step: float = 1.5
    #: the least mean flower probability of surplus tiles beside the hand taken as flowers
    flower_surplus: float = 0.1
    #: the least playing-tile probability that lets the hand row, short of tiles, take back
    #: a tile read as a flower (a known set's flowers read near 0, unfamiliar art's near 0.4)
    flower_face: float = 0.3
    #: tiles apart from a whole hand are flowers whose faces were not read when none is
    #: named more surely than this (a tile of a known set reads surely)
    flower_unread: float = 0.5
    #: flowers and seasons in a set: the most tiles that can lie to one side as flowers
    flowers_in_set: int = FLOWERS_IN_SET
    #: the fewest unread tiles at the hand row's end taken as flowers for its count: one
    #: tile too many is as often a stray or a tile found twice
    unread_end_min: int = 2
    #: the least playing-tile probability that makes a "back" in no concealed kong a face-up
    #: tile (true backs read below 0.15, a white dragon read as a back about 0.37)
    stray_back_face: float = 0.2
    #: a tile's side boxed as a tile scores under this (most boxes on tiles score above it)
    side_score: float = 0.7
    #: how much the tile faces must agree on where the player sits to decide it
    facing: float = 0.2
    #: the faces' say against the other cues (a winning tile set apart counts 2, the rows 1):
    #: faces agreeing fully outweigh both, half-hearted ones only one
    faces_weight: float = 4.0
    #: faces alike either way round vote on the direction only when no other face does
    symmetric: frozenset[str] = SYMMETRIC_FACES


@dataclass(frozen=True)
class DecodeConfig:
    """The most probable hand the rules allow (`vision.decode`)."""

    #: classes kept per tile / per meld
    top_k_tile: int = 6
    top_k_meld: int = 12
    #: the most summed log-probability the rules may cost before they are not believed
    max_drop: float = 10.0
    #: the most one tile's reading may give up (e^-4.6: a class 1/100 as likely as the first)
    max_tile_drop: float = 4.6
    #: the most search steps (about 0.12 s on two cores), counted in steps, not seconds, so
    #: a photo reads the same however busy the machine is
    max_steps: int = 12000


@dataclass(frozen=True)
class PipelineConfig:
    """The whole reading (`vision.pipeline`)."""

    #: tiles read with less probability than this are listed under "uncertain" for a check
    uncertain: float = 0.5
    #: the most search steps the layout's other readings may take between them (about
    #: 0.15 s on two cores): steps, not seconds, so a photo reads the same on a busy machine
    read_again_steps: int = 15000
    #: a tile's box this near the photo's edge (px) is cut by it: reported `partial`
    edge_px: float = 2.0
    #: a hand read as no complete hand is read again without its faintest box, where that
    #: box scores under this (most boxes on tiles score 0.8 and more) ...
    faint: float = 0.7
    #: ... also over a try read whole only with this many kongs lying face down or more
    #: (a wall's backs taken in read as kongs; a hand seldom lays down two such kongs)
    faint_over_kongs: int = 2


@dataclass(frozen=True)
class HandZoomConfig:
    """The winner's hand on a whole table looked at again by the usual detector
    (`vision.handzoom`), in tile sizes (the median short side of the hand's boxes)."""

    #: a complete hand read with fewer warnings than this (one, such as a winning tile
    #: not set apart) is not looked at again: reading its tiles again costs as much as
    #: the first reading (at 1 a 12 MP table took 0.96 s, against 0.77)
    warnings: int = 2
    #: the area looked at: the hand's tiles and this much around them
    pad: float = 1.0
    #: where the hand's rows run this many degrees or more off the photo's axes, the
    #: area is also looked at turned square to them (`vision.turn`)
    tilt: float = 12.0
    #: a box found there joins the hand when its centre lies this near the hand's tiles
    margin: float = 0.6
    #: a box overlapping a hand tile's this much (IoU) is that tile, boxed again
    same: float = 0.5
    #: ... and one overlapping every tile found less than this is a tile found anew
    apart: float = 0.3
    #: a hand tile boxed again this closely (IoU) keeps its reading; above 1, as here,
    #: every tile boxed again is read again (at 0.85 one held-out table fewer reads right)
    keep: float = 1.01


@dataclass(frozen=True)
class VisionConfig:
    """The recognizer's thresholds, one frozen section per stage."""

    detect: DetectConfig = DetectConfig()
    turn: TurnConfig = TurnConfig()
    classify: ClassifyConfig = ClassifyConfig()
    exemplars: ExemplarConfig = ExemplarConfig()
    tileset: TileSetConfig = TileSetConfig()
    faint: FaintConfig = FaintConfig()
    orient: OrientConfig = OrientConfig()
    stacked: StackedConfig = StackedConfig()
    regions: RegionsConfig = RegionsConfig()
    rows: RowsConfig = RowsConfig()
    layout: LayoutConfig = LayoutConfig()
    decode: DecodeConfig = DecodeConfig()
    pipeline: PipelineConfig = PipelineConfig()
    hand_zoom: HandZoomConfig = HandZoomConfig()

    def reading(self, reading: Reading) -> VisionConfig:
        """This configuration with the layout read by `reading`'s thresholds."""
        return replace(self, layout=replace(self.layout, reading=reading))


#: the configuration the product reads photos with
DEFAULT = VisionConfig()
