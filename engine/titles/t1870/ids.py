"""Ids and fixed numbers of 1870 shared by its hook modules."""

RIVER_COMPANY, CATTLE, PORT = "MRBC", "SCC", "GSC"
RIVER_CORPS = ("MP", "SSW")
NO_BUY_COMPANIES = ("SLSF",)
DESTINATION_TOKEN_COST = 100
D_DISTANCE, D_COPIES = 999, 20  # the site's D train: distance 999, 20 cards
D_DISCOUNT = 300  # trading a 4, 5 or 6 in for a D
BLUE_REVENUE_PHASE = "6"  # a standard phase paying the blue off-board values
WALK_BUDGET = 200_000  # link steps of one connection check
