"""Robot footprints and configuration space.

:class:`Footprint` (disc, rectangle, polygon) knows its radii and
rasterizes itself; :func:`cspace` gives the blocked reference-point
positions on a grid (one grid for a disc, one per heading bin otherwise);
:func:`footprint_clearance` measures the exact distance from the robot's
body to the walls; :mod:`robomaze.geometry.validity` answers "is this pose
free, is this motion free" for the simulator, OMPL and the metrics.
"""

from .clearance import cell_clearance, footprint_clearance, footprint_touches, segment_clearance
from .cspace import (MOTIONS, bin_geometry, cspace, cspace_bits, free_space, heading_bin, heading_bins,
                     motion_cspace, swept_kernel)
from .cspace import free_space_padded
from .footprint import CONTACT_TOL, Footprint, check_footprint

__all__ = ["Footprint", "CONTACT_TOL", "check_footprint", "cspace", "cspace_bits", "free_space", "footprint_clearance", "segment_clearance",
           "cell_clearance", "footprint_touches",
           "heading_bins", "heading_bin", "swept_kernel", "bin_geometry", "motion_cspace",
           "MOTIONS", "free_space_padded"]
