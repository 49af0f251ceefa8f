"""A robot: a footprint, its kinematics and the range sensors it carries.

>>> from robomaze.geometry import Footprint
>>> from robomaze.sense import lidar
>>> r = Robot(Footprint.disc(0.2), sensors=[lidar(n_beams=36)])
>>> r.kinematics.v_max, len(r.sensors)
(0.5, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ParameterError
from ..geometry import check_footprint
from ..sense.protocol import is_sensor
from .kinematics import Kinematics

__all__ = ["Robot"]


@dataclass(frozen=True, eq=False)
class Robot:
    """Footprint + kinematics + sensors (all mounted in the robot frame).

    Parameters
    ----------
    footprint : robomaze.geometry.Footprint
    kinematics : Kinematics
        Limits and model (unicycle by default).
    sensors : sequence of sensors
        Range sensors or any object meeting the sensor protocol
        (:mod:`robomaze.sense.protocol`). The first one is the robot's main
        sensor (``obs["scan"]``).
    """

    footprint: object
    kinematics: Kinematics = field(default_factory=Kinematics)
    sensors: tuple = ()

    def __post_init__(self) -> None:
        check_footprint(self.footprint, optional=False)   # the simulator's door
        if not isinstance(self.kinematics, Kinematics):
            raise ParameterError(f"kinematics must be a Kinematics, got {self.kinematics!r}")
        sensors = (self.sensors,) if is_sensor(self.sensors) else tuple(self.sensors)
        for s in sensors:
            if not is_sensor(s):
                raise ParameterError(f"sensors must meet the sensor protocol "
                                     f"(robomaze.sense.protocol: observe and describe), "
                                     f"got {s!r}")
        object.__setattr__(self, "sensors", sensors)

    def describe(self) -> dict:
        """JSON-friendly description (for trajectory headers)."""
        fp = self.footprint
        shape = {"kind": fp.kind}
        if fp.kind == "disc":
            shape["radius"] = fp.radius
        else:
            shape["vertices"] = [list(map(float, v)) for v in fp.vertices]
        return {"footprint": shape, "kinematics": self.kinematics.describe(),
                "sensors": [s.describe() for s in self.sensors]}
