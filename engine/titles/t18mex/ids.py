"""18MEX ids and constants shared by the title's modules."""

NDM = "NdM"
MINOR_TRAINS = {"A": "2-0", "B": "2-1", "C": "2-2"}
MINOR_TRADE_IN = {"A": ("NdM", "NdM_7"), "B": ("NdM", "NdM_8"), "C": ("UdY", "UdY_8")}
PUEBLA, DOUBLE_HEX = "P11", ("O10", "P11")
KCMO, COPPER_CANYON, COPPER_CANYON_TILE, KCMO_DISCOUNT = "KCMO", "F5", "470", 60
NOT_FOR_CORPORATIONS = ("A", "B", "C", "MNR")
MNR = "MNR"
