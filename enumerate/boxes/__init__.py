"""One player on two boxes against one dealer hand, each box decided seeing both hands (the
``[boxes]`` rule of a variant file): the whole game exactly (:mod:`enumerate.boxes.game`) and its
kind of table (:mod:`enumerate.boxes.kind`)."""
