from .core import Claim, Paper

PAPER = Paper(
    id="lecun1998", title="Gradient-based learning applied to document recognition",
    authors="Yann LeCun, Léon Bottou, Yoshua Bengio, Patrick Haffner", year=1998,
    venue="Proceedings of the IEEE 86(11), 2278–2324",
    claims=(
        Claim("With shared weights, shifting the input of a convolutional layer shifts "
              "its feature map by the same amount and leaves it otherwise unchanged (the "
              "law checks the circular case, where this holds exactly).",
              ("conv_translation.shift",), "§II.A, convolutional networks"),
    ))
