# A tuple element that is itself a tuple: read out of the tuple that holds it.
T = ((1, 2, 3),)
x = T[0]
