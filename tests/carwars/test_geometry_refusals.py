"""The geometry's shape argument refused when it is neither a Polygon nor a Counter (CW-ARC-01).

The shape functions take a Polygon or a Counter; anything else is a programming error, refused with a TypeError
naming the type it got (a tuple of points is not silently read as something else).
"""
import pytest

from hardpoint.carwars.geometry import Counter, Polygon, clip_to_arc, nearest_point, polygon_arcs, segment_length_inside

CAR = Counter(0.0, 0.0, 1.0, 0.5, 0.0)
SQUARE = [(2.0, -0.5), (3.0, -0.5), (3.0, 0.5), (2.0, 0.5)]


@pytest.mark.parametrize("call", [
    lambda s: polygon_arcs(CAR, s),
    lambda s: clip_to_arc(CAR, "front", s),
    lambda s: nearest_point(s, (0.0, 0.0)),
    lambda s: segment_length_inside((0.0, 0.0), (5.0, 0.0), s),
])
def test_cw_arc_01_shape_must_be_a_polygon_or_a_counter(call):
    """CW-ARC-01: the same square as a Polygon is accepted; as a list of points it is refused, naming the type."""
    call(Polygon(SQUARE))
    with pytest.raises(TypeError, match="expected a Polygon or a Counter, got list"):
        call(SQUARE)
